// The CLI versions vouch is tested with: the one home of the pinned versions
// (clis/package.json pins the same, held equal by test/harness/versions.test.ts;
// the contract tests in test/contract/ run exactly these). Bumping a CLI is a
// change here and in clis/package.json, and a contract run (docs/real-clis.md).
import type { ProcessHarnessName } from "./registry.ts";

export type AgentCli = Exclude<ProcessHarnessName, "command">;

export const TESTED_VERSIONS: Readonly<Record<AgentCli, { package: string; version: string }>> = {
  claude: { package: "@anthropic-ai/claude-code", version: "2.1.332" },
  codex: { package: "@openai/codex", version: "0.171.0" },
  gemini: { package: "@google/gemini-cli", version: "0.61.0" },
};

/** The first dotted version number in a CLI's `--version` output
 *  ("codex-cli 0.171.0", "2.1.332 (Claude Code)", "0.61.0"). */
export function versionIn(text: string): string | null {
  return /\b(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/.exec(text)?.[1] ?? null;
}

/** Whether `version` is the one vouch was tested with; null when it is unknown. */
export function testedWith(cli: AgentCli, version: string | null): boolean | null {
  if (version === null) return null;
  return version === TESTED_VERSIONS[cli].version;
}
