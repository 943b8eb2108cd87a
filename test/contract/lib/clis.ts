// Where the pinned real agent CLIs live (clis/package.json, installed by
// `npm run clis` into the ignored clis/node_modules) and whether they are there.
// The contract suite runs each CLI only when it is installed; otherwise its
// tests skip and the summary (skip-reporter.ts) says how to install them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..", "..");
/** The folder holding the CLIs' package.json and node_modules: clis/, or another set of
 *  versions (scripts/cli-drift.ts installs the registry's newest into a temp folder and
 *  points VOUCH_CONTRACT_CLIS at it). */
export const CLIS_DIR = process.env.VOUCH_CONTRACT_CLIS || join(ROOT, "clis");
/** Put first on PATH so `claude`, `codex` and `gemini` resolve to the pinned copies. */
export const CLIS_BIN = join(CLIS_DIR, "node_modules", ".bin");
export const INSTALL_COMMAND = "npm run clis";

export const CLI_NAMES = ["claude", "codex", "gemini", "claude-code-acp"] as const;
export type CliName = (typeof CLI_NAMES)[number];

/** The npm package each CLI comes from (as pinned in clis/package.json). */
export const CLI_PACKAGES: Record<CliName, string> = {
  claude: "@anthropic-ai/claude-code",
  codex: "@openai/codex",
  gemini: "@google/gemini-cli",
  // An ACP adapter (ADR 0051): Claude Code behind the Agent Client Protocol.
  "claude-code-acp": "@zed-industries/claude-code-acp",
};

export function cliPath(name: CliName): string {
  return join(CLIS_BIN, name);
}

/** True when the pinned CLI is installed (its launcher resolves to an existing file). */
export function cliInstalled(name: CliName): boolean {
  return existsSync(cliPath(name));
}

/** The version clis/package.json pins, e.g. "2.1.332". */
export function pinnedVersion(name: CliName): string {
  const manifest = JSON.parse(readFileSync(join(CLIS_DIR, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  const v = manifest.dependencies[CLI_PACKAGES[name]];
  if (v === undefined) throw new Error(`clis/package.json does not pin ${CLI_PACKAGES[name]}`);
  return v;
}

/** The version actually installed in clis/node_modules, or null when it is not installed. */
export function installedVersion(name: CliName): string | null {
  const p = join(CLIS_DIR, "node_modules", ...CLI_PACKAGES[name].split("/"), "package.json");
  if (!existsSync(p)) return null;
  return (JSON.parse(readFileSync(p, "utf8")) as { version: string }).version;
}

/** The CLIs that are not installed (the ones whose contract tests skip). */
export function missingClis(): CliName[] {
  return CLI_NAMES.filter((n) => !cliInstalled(n));
}

/**
 * The test process's PATH without the folder `bun --bun` puts first, whose `node` is Bun
 * itself: the CLIs that are node scripts (gemini, the codex launcher, claude-code-acp)
 * would run under Bun there, not under the node users run them with. Under Bun, gemini's
 * detached shell stayed in gemini's own session (Bun's spawn does not make a new one),
 * which hid the stray processes of issue 28 item 1 from the suite.
 */
export function systemPath(): string {
  const entries = (process.env.PATH ?? "/usr/bin:/bin").split(":");
  return entries.filter((e) => !/\/bun-node-[^/]*$/.test(e)).join(":") || "/usr/bin:/bin";
}
