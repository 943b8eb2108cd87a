// A throwaway world per contract test: HOME for the CLI (its settings,
// transcripts and caches land there, never in the developer's home), a work
// folder the agent runs in, and a VOUCH_HOME for the ledger. Nothing of it
// survives cleanup().
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface ThrowawayHome {
  /** The root holding everything below. */
  root: string;
  /** HOME for vouch and the CLI. */
  home: string;
  /** The agent's working directory (the graph's base_dir). */
  work: string;
  /** VOUCH_HOME: the run ledger. */
  vouchHome: string;
  cleanup(): void;
}

const scratchDirs: string[] = [];
/** A throwaway folder for files that need no full throwawayHome (a graph, a bin folder); removed by cleanupScratch(). */
export function scratch(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), `vouch-contract-${prefix}-`));
  scratchDirs.push(d);
  return d;
}
export function cleanupScratch(): void {
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface HomeOptions {
  /** Files to create, by path relative to HOME (e.g. ".codex/config.toml"). */
  homeFiles?: Record<string, string>;
  /** Files to create, by path relative to the work folder. */
  workFiles?: Record<string, string>;
  /** Make the work folder a git repository (some CLIs refuse to run outside one). */
  git?: boolean;
}

export function throwawayHome(prefix: string, o: HomeOptions = {}): ThrowawayHome {
  const root = mkdtempSync(join(tmpdir(), `vouch-contract-${prefix}-`));
  const home = join(root, "home");
  const work = join(root, "work");
  const vouchHome = join(root, "vouch-home");
  for (const d of [home, work, vouchHome]) mkdirSync(d, { recursive: true });
  writeAll(home, o.homeFiles);
  writeAll(work, o.workFiles);
  if (o.git) {
    const r = Bun.spawnSync(["git", "init", "-q"], { cwd: work, stdout: "ignore", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`git init in ${work} failed: ${r.stderr.toString()}`);
  }
  return { root, home, work, vouchHome, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function writeAll(base: string, files: Record<string, string> | undefined): void {
  for (const [rel, text] of Object.entries(files ?? {})) {
    const p = join(base, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
}
