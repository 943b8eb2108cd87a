// The CLI versions vouch is tested with: each agent CLI's adapter declares its
// own (`testedVersion`, src/spawn/harness/<name>/adapter.ts); clis/package.json
// pins the same, held equal by test/harness/versions.test.ts, and the contract
// tests in test/contract/ run exactly these. Bumping a CLI is a change in its
// adapter and in clis/package.json, and a contract run (docs/real-clis.md).
import type { HarnessName } from "../../engine/ports.ts";
import { HARNESSES } from "./registry.ts";
import type { TestedVersion } from "./types.ts";

/** The tested version of every agent CLI, by harness name, in the registry's order. */
export const TESTED_VERSIONS: Readonly<Partial<Record<HarnessName, TestedVersion>>> = Object.fromEntries(
  HARNESSES.flatMap((h) => (h.testedVersion ? [[h.name, h.testedVersion]] : [])),
);

/** The first dotted version number in a CLI's `--version` output
 *  ("codex-cli 0.171.0", "2.1.332 (Claude Code)", "0.61.0"). */
export function versionIn(text: string): string | null {
  return /\b(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/.exec(text)?.[1] ?? null;
}

/** Whether `version` is the one vouch was tested with; null when it is unknown (or `cli` has no tested version). */
export function testedWith(cli: HarnessName, version: string | null): boolean | null {
  const tested = TESTED_VERSIONS[cli];
  if (version === null || !tested) return null;
  return version === tested.version;
}
