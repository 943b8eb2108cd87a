// What one command costs the main thread beyond Bun.spawn itself (issue 29 item 2, ADR 0085),
// bounded by counts, never by time: the file-system calls per map-branch command (strace of
// the spawn seam driven as a map drives it, 60 commands less 20, so Bun's own start-up cancels
// out), and the tail buffers a silent command allocates. Each bound failed on the code before it.
import { afterAll, describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TailBuffer } from "../../src/spawn/tail-buffer.ts";
import { tempDir } from "./helpers.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());
const hasStrace = Bun.spawnSync(["sh", "-c", "command -v strace"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const HOST = join(import.meta.dirname, "fixtures", "map-commands-host.ts");
const COUNTED = ["statx", "newfstatat", "fstat", "stat", "lstat", "access", "faccessat", "faccessat2", "openat", "write", "pwrite64"];

/** Calls of each kind the vouch process itself made (its children's left out) for `n` commands. */
function callsFor(n: number): Map<string, number> {
  const log = join(dir.path, `trace-${n}.txt`);
  const r = Bun.spawnSync(
    ["strace", "-f", "-qq", "-o", log, "-e", `trace=${COUNTED.join(",")},vfork`, process.execPath, HOST, String(n), dir.path],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  if (r.exitCode !== 0) throw new Error(`the host failed: ${r.stderr.toString()}`);
  const lines = readFileSync(log, "utf8").split("\n");
  // A child's calls (before and after its exec) are under its own pid: the pids vfork returned.
  const children = new Set<string>();
  for (const l of lines) {
    const m = /^\d+\s+vfork\(\).*=\s+(\d+)$/.exec(l) ?? /^\d+\s+<\.\.\. vfork resumed>.*=\s+(\d+)$/.exec(l);
    if (m) children.add(m[1]!);
  }
  const counts = new Map<string, number>();
  for (const l of lines) {
    const m = /^(\d+)\s+(?:<\.\.\. )?(\w+)\(/.exec(l);
    if (!m || children.has(m[1]!) || l.includes("resumed>")) continue;
    counts.set(m[2]!, (counts.get(m[2]!) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(!hasStrace)("file-system calls per command (strace)", () => {
  test("a map-branch `true` script: 7 stats and accesses (11 before), 4 opens and writes, beyond Bun.spawn's own", () => {
    const few = callsFor(20);
    const many = callsFor(60);
    const per = (names: string[]) => names.reduce((s, k) => s + (many.get(k) ?? 0) - (few.get(k) ?? 0), 0) / 40;
    const stats = per(["statx", "newfstatat", "fstat", "stat", "lstat", "access", "faccessat", "faccessat2"]);
    const opensAndWrites = per(["openat", "write", "pwrite64"]);
    // Before (ADR 0075's code): 11.1 stats and accesses per command — the cwd, /bin/sh twice, each
    // of the four handed files by its path, and each of the two rewritten ones by its descriptor twice.
    // Now: /bin/sh once per process, a rewritten file by its descriptor only (7.1 measured).
    expect(stats).toBeLessThanOrEqual(7.5);
    // Unchanged (4.1): the two rewritten files opened and written; a guard, not a change.
    expect(opensAndWrites).toBeLessThanOrEqual(4.5);
  }, 120_000);
});

describe("the tail of a silent stream", () => {
  test("holds no buffer until a byte arrives, then grows as before, never past keep", () => {
    const tail = new TailBuffer(64 * 1024);
    // Before: 4 KiB allocated per stream at the start, two per process whatever it printed.
    expect(tail.capacity).toBe(0);
    expect(tail.text()).toBe("");
    expect(tail.bytes().length).toBe(0);
    tail.push(new TextEncoder().encode("hello\n"));
    expect(tail.text()).toBe("hello\n");
    expect(tail.capacity).toBeLessThanOrEqual(4096);
    for (let i = 0; i < 100; i++) tail.push(new Uint8Array(1000).fill(65));
    expect(tail.capacity).toBe(64 * 1024);
    expect(tail.total).toBe(100_006);
  });
});
