// The real compiled binary for end-to-end tests: built when missing or older
// than any source file, so a test never judges a stale build.
import { existsSync, readdirSync, statSync } from "node:fs";
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

export function ensureBinary(): string {
  const stale = !existsSync(BINARY) || statSync(BINARY).mtimeMs < newestSource(join(ROOT, "src"));
  if (stale) {
    const build = Bun.spawnSync([process.execPath, "run", join(ROOT, "build.ts")], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stderr.toString()}`);
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
