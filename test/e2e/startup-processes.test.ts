// What `vouch --version` and `vouch validate` of a graph without workspaces do
// at start-up, counted on the real binary under strace (issue 20, ADR 0031):
// they start no child process (execve is the binary's own, once), and they never
// build the stdin stream (no fstat or read of descriptor 0: neither command reads
// stdin, and building the stream cost `--version` about 3 ms of CPU). Counts, not
// timings. Each marker is also shown to catch what it looks for.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, ensureBinary, FINDING_VERIFIER, ROOT } from "./helpers.ts";
import { makeRepo } from "../workspace/git-repo.ts";

const hasStrace = Bun.spawnSync(["sh", "-c", "command -v strace"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const dir = mkdtempSync(join(tmpdir(), "vouch-startup-procs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => void ensureBinary(), 300_000);

interface Traced {
  code: number;
  /** Programs started (execve), the traced binary's own first. */
  execs: string[];
  /** Syscalls that stat or read descriptor 0. */
  stdinTouches: string[];
}

/** Runs argv under `strace -f` (every thread and child) with stdin from /dev/null. */
function traced(argv: string[], cwd = ROOT): Traced {
  const log = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const r = Bun.spawnSync(["strace", "-f", "-qq", "-o", log, "-e", "trace=execve,read,fstat,newfstatat,statx", ...argv], {
    cwd,
    stdin: Bun.file("/dev/null"),
    stdout: "ignore",
    stderr: "ignore",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, VOUCH_HOME: join(dir, "home") },
  });
  const lines = readFileSync(log, "utf8").split("\n");
  return {
    code: r.exitCode ?? -1,
    execs: lines.filter((l) => /\bexecve\("/.test(l)).map((l) => /execve\("([^"]*)"/.exec(l)![1]!),
    stdinTouches: lines.filter((l) => /\b(read|fstat)\(0,|\b(newfstatat|statx)\(0, ""/.test(l)),
  };
}

describe.skipIf(!hasStrace)("start-up of the binary (strace)", () => {
  test("vouch --version starts no process and does not touch stdin", () => {
    const t = traced([BINARY, "--version"]);
    expect(t.code).toBe(0);
    expect(t.execs).toEqual([BINARY]);
    expect(t.stdinTouches).toEqual([]);
  });

  test("vouch validate of the largest shipped graph (no workspaces) starts no process and does not touch stdin", () => {
    const t = traced([BINARY, "validate", FINDING_VERIFIER]);
    expect(t.code).toBe(0);
    expect(t.execs).toEqual([BINARY]);
    expect(t.stdinTouches).toEqual([]);
  });

  test("the markers catch what they look for: a worktree graph's validate runs git; a program that builds process.stdin stats it", () => {
    const repo = makeRepo({ "a.txt": "a\n" }, "vouch-startup-repo-");
    try {
      writeFileSync(
        join(repo, "wt.yaml"),
        "version: 1\nname: wt\nnodes:\n  a: { kind: script, run: 'true', workspace: { mode: worktree } }\n",
      );
      const t = traced([BINARY, "validate", "wt.yaml"], repo);
      expect(t.code).toBe(0);
      expect(t.execs.length).toBeGreaterThan(1);
      expect(t.execs.slice(1).some((p) => p.endsWith("/git"))).toBe(true);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
    const stdin = traced([process.execPath, "-e", "process.stdin"]);
    expect(stdin.stdinTouches.length).toBeGreaterThan(0);
  });
});
