// The real compiled binary for end-to-end tests: built when missing or older
// than any source file, so a test never judges a stale build.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const BINARY = join(ROOT, "dist", "vouch");

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestSource(p) : s.mtimeMs);
  }
  return newest;
}

// graphs/plan.yaml is built into the binary (vouch plan's planner).
const stale = () =>
  !existsSync(BINARY) ||
  statSync(BINARY).mtimeMs < Math.max(newestSource(join(ROOT, "src")), statSync(join(ROOT, "graphs", "plan.yaml")).mtimeMs);

/** Test files run in parallel workers: one builds (holding a lock folder), the others wait for it. */
export function ensureBinary(): string {
  const lock = join(ROOT, "dist", ".build-lock");
  const deadline = Date.now() + 180_000;
  while (stale()) {
    mkdirSync(join(ROOT, "dist"), { recursive: true });
    try {
      mkdirSync(lock);
    } catch {
      // Another worker is building; a lock older than the deadline is left from a crash.
      if (Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
      Bun.sleepSync(200);
      continue;
    }
    try {
      if (!stale()) break;
      const build = Bun.spawnSync([process.execPath, "run", join(ROOT, "build.ts")], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
      if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stderr.toString()}`);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return BINARY;
}

export interface Ran {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function runVouch(args: string[], cwd = ROOT): Ran {
  const r = Bun.spawnSync([BINARY, ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  return { exitCode: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
