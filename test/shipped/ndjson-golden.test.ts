// Refactors change no behaviour: the NDJSON of the shipped graphs (on the replay
// harness) and of the end-to-end script fixtures, through the real binary, is
// what the goldens in test/shipped/golden/ hold. They were written from main's
// binary before issue 14's refactors (node_modules/.bin/bun test/shipped/ndjson-golden.ts
// BINARY); a change that means to alter the stream regenerates them and says so.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { BINARY, ensureBinary } from "../graph/binary.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { CASES, GOLDEN_DIR, normalize, runCase, type Golden } from "./ndjson-golden.ts";

beforeAll(() => {
  ensureBinary();
}, 180_000);

describe("the NDJSON stream is unchanged", () => {
  for (const c of CASES) {
    test(`${c.name}: the same events, per node in the same order, and the same exit code`, { timeout: 60_000 }, () => {
      const golden = JSON.parse(readFileSync(join(GOLDEN_DIR, `${c.name}.json`), "utf8")) as Golden;
      const now = runCase(BINARY, c);
      expect(now.exitCode).toBe(golden.exitCode);
      expect(now.run).toEqual(golden.run);
      expect(Object.keys(now.nodes)).toEqual(Object.keys(golden.nodes));
      for (const key of Object.keys(golden.nodes)) expect(now.nodes[key], key).toEqual(golden.nodes[key]);
    });
  }

  test("the comparison can fail: a changed status, a reordered node, a lost event are all seen", () => {
    const ev = (type: string, extra: object) =>
      ({ v: 1, run: "r1", t: "2026-01-01T00:00:00.000Z", seq: 0, type, ...extra }) as unknown as VouchEvent;
    const base: [VouchEvent, VouchEvent, VouchEvent] = [
      ev("run.started", { graph: "g" }),
      ev("node.started", { node: "a", attempt: 1 }),
      ev("node.finished", { node: "a", status: "passed" }),
    ];
    const a = normalize(base, 0, "/r", "/h");
    expect(normalize([base[0], base[2], base[1]], 0, "/r", "/h")).not.toEqual(a);
    expect(normalize([base[0], base[1]], 0, "/r", "/h")).not.toEqual(a);
    expect(normalize([base[0], base[1], ev("node.finished", { node: "a", status: "failed" })], 0, "/r", "/h")).not.toEqual(a);
    // What may differ between two runs of the same code does not count.
    expect(normalize([ev("run.started", { graph: "g", t: "later", run: "r2" }), base[1], base[2]], 0, "/r", "/h")).toEqual(a);
  });
});
