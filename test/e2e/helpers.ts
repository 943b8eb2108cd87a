// Driving the real compiled binary (dist/vouch) from end-to-end tests: a
// throwaway ledger home per test, a clean environment, and NDJSON read back
// through the exported zod schemas.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { commitFolder } from "../workspace/git-repo.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventSchema, type VouchEvent } from "../../src/engine/events.ts";
import { BINARY, ROOT, ensureBinary } from "../graph/binary.ts";

export { BINARY, ROOT, ensureBinary };

export const E2E_GRAPHS = join(import.meta.dirname, "graphs");
export const FINDING_VERIFIER = join(ROOT, "graphs", "finding-verifier.yaml");
export const SAMPLE_REPO = join(ROOT, "examples", "sample-repo");
/** The shipped demo: the finding verifier on the sample repository, replayed (no model). */
export const DEMO_ARGS = [
  FINDING_VERIFIER,
  "--harness",
  "replay",
  "-i",
  `findings=@${join(SAMPLE_REPO, "REVIEW.md")}`,
  "-i",
  `project_dir=${SAMPLE_REPO}`,
];

/** A private copy of examples/sample-repo as a git repository, everything committed: step-runner
 *  works in a worktree of the repository holding project_dir, never of vouch's own checkout. */
export function sampleGitRepo(): TempDir {
  const t = tempDir("sample-git");
  cpSync(SAMPLE_REPO, t.path, { recursive: true });
  commitFolder(t.path);
  return t;
}

export interface TempDir {
  path: string;
  cleanup(): void;
}

export function tempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(tmpdir(), `vouch-e2e-${prefix}-`));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export interface VouchOptions {
  /** VOUCH_HOME: every test gets its own; never the repository's .vouch. */
  home: string;
  cwd?: string;
  /** Added to the clean environment (PATH, HOME, TZ, VOUCH_HOME). */
  env?: Record<string, string>;
}

/** The environment the binary gets: nothing from the test runner but PATH and HOME. */
export function cleanEnv(o: VouchOptions): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", TZ: "UTC", VOUCH_HOME: o.home, ...o.env };
}

export async function vouch(args: string[], o: VouchOptions): Promise<Ran> {
  const p = Bun.spawn([BINARY, ...args], { cwd: o.cwd ?? ROOT, env: cleanEnv(o), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** Every stdout line must be one event that validates against the exported schema; anything else throws. */
export function parseNdjson(stdout: string): VouchEvent[] {
  if (stdout !== "" && !stdout.endsWith("\n")) throw new Error(`NDJSON does not end with a newline: ${JSON.stringify(stdout.slice(-80))}`);
  const lines = stdout === "" ? [] : stdout.slice(0, -1).split("\n");
  return lines.map((l, i) => {
    let value: unknown;
    try {
      value = JSON.parse(l);
    } catch {
      throw new Error(`stdout line ${i + 1} is not JSON: ${l.slice(0, 120)}`);
    }
    const parsed = eventSchema.safeParse(value);
    if (!parsed.success)
      throw new Error(`stdout line ${i + 1} does not match the event schema: ${parsed.error.message}\n${l.slice(0, 300)}`);
    return parsed.data;
  });
}

/** The ledger's view of the runs in a home (`vouch runs --json`). */
export async function runsOf(home: string): Promise<{ id: string; status: string; exit_code: number | null; live: boolean }[]> {
  const r = await vouch(["runs", "--json"], { home });
  if (r.code !== 0) throw new Error(`vouch runs --json: exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as { id: string; status: string; exit_code: number | null; live: boolean }[];
}

/** A stack trace printed by Bun or Node ("    at fn (file:1:2)"), which a user must never see. */
export const STACK_LINE = /^\s+at .+[:(]\d+/m;
