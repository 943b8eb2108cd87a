// What a 100,000-item map's own node.finished costs to store and print, once its text is made
// (ADR 0086): the peak resident set of a fresh process, read from /proc (memory, not time).
// Before, the ledger's pack of the 9.4 MB results held every one of its ~700,000 matches, the
// write's garbage stayed until it ended, and the output encoded each 64 Ki slice into a buffer of
// its own: +54 to +62 MiB (four runs); now +12.6 MiB (two). Bound: 30 MiB.
import { join } from "node:path";
import { expect, test } from "vitest";

const BOUND_KIB = 30 * 1024;

test("a 100,000-item map's node.finished is stored and printed within 30 MiB of peak growth", () => {
  const r = Bun.spawnSync([process.execPath, join(import.meta.dirname, "map-end-child.ts"), "100000"], { stdout: "pipe", stderr: "pipe" });
  expect(r.exitCode, r.stderr.toString()).toBe(0);
  const { before, after } = JSON.parse(r.stdout.toString()) as { before: number; after: number };
  expect(after - before).toBeLessThan(BOUND_KIB);
}, 120_000);
