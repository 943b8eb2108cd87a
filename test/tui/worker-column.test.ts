// The live UI names the worker a branch runs on (issue 19): its row, its details
// and its node's details, and the plain lines (a branch's end, a failed node, an
// attempt cut off on a worker). A worker's name comes through Redis from another
// machine: escape sequences and control characters never reach the terminal, and
// a long name is cut on the row.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { lineText } from "../../src/tui/lines.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { displayWidth } from "../../src/text/width.ts";
import { reduceAll, selectDetails, selectFrame } from "../../src/tui/view-model.ts";
import { WORKER_WIDTH } from "../../src/tui/view-worker.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { RunRecorder } from "./helpers/event-builder.ts";

const NOW = Date.parse("2026-11-29T10:00:40.000Z");
const ref = (index: number) => ({ map: "each", index });
const remote = (worker: string, attempt = 1, seq = 0) => ({ remote: { worker, job: `r.each.x.1`, attempt, seq } });
const done = (status: "passed" | "failed", extra: Record<string, unknown> = {}) =>
  ({
    type: "node.finished",
    node: "work",
    attempt: 1,
    status,
    qualifier: null,
    stop_reason: "complete",
    cause: status === "failed" ? "check_failed" : null,
    cost_usd: null,
    turns: null,
    wall_ms: 900,
    ...extra,
  }) as const;

/** Three branches on workers: #0 passed on w-alpha, #1 failed on `worker`, #2 cut off on w-alpha and now on w-beta. */
function fleetRun(worker = "w-gamma"): VouchEvent[] {
  const r = new RunRecorder();
  r.emit({
    type: "run.started",
    graph: "fleet",
    graph_path: "fleet.yaml",
    graph_digest: "sha256:1",
    inputs: {},
    caps: { budget_usd: null, wall_ms: null },
    concurrency: 4,
    nodes: [
      { id: "each", kind: "map", needs: [] },
      { id: "work", kind: "script", needs: [], map: "each" },
    ],
    pass_env: [],
    harness: null,
    resumed: false,
    version: "0.1.0",
  } as never);
  r.emit({ type: "node.started", node: "each", kind: "map", attempt: 1, items: 3 } as never);
  for (const i of [0, 1, 2]) {
    r.emit({ type: "branch.started", branch: ref(i), item: i, label: `item-${i}` } as never);
    r.emit({ type: "branch.dispatched", branch: ref(i), executor: "redis", job: `r.each.${i}.1`, dispatch: 1 } as never);
  }
  r.emit({ type: "node.started", node: "work", branch: ref(0), kind: "script", attempt: 1, ...remote("w-alpha") } as never);
  r.emit({ ...done("passed"), branch: ref(0), ...remote("w-alpha", 1, 1) } as never);
  r.emit({ type: "branch.finished", branch: ref(0), status: "passed", verdict: null } as never);
  r.emit({ type: "node.started", node: "work", branch: ref(1), kind: "script", attempt: 1, ...remote(worker) } as never);
  r.emit({
    ...done("failed", { error: "1 of 1 check failed: tests (exit 1, expected 0)" }),
    branch: ref(1),
    ...remote(worker, 1, 1),
  } as never);
  r.emit({ type: "branch.finished", branch: ref(1), status: "failed", verdict: null } as never);
  r.emit({ type: "node.started", node: "work", branch: ref(2), kind: "script", attempt: 1, ...remote("w-alpha") } as never);
  r.emit({ type: "branch.cut_off", branch: ref(2), job: "r.each.2.1", attempt: 1, worker: "w-alpha" } as never);
  return r.events;
}

function withSecondAttempt(events: VouchEvent[]): VouchEvent[] {
  const r = new RunRecorder();
  r.events.push(...events);
  r.emit({ type: "node.started", node: "work", branch: ref(2), kind: "script", attempt: 1, ...remote("w-beta", 2) } as never);
  return r.events;
}

const rows = (events: VouchEvent[], width = 100) => selectFrame(reduceAll(events), { width, height: 40, now: NOW }).lines.map(lineText);
const row = (text: string[], label: string) => text.find((l) => l.includes(label)) ?? "";

function plain(events: VouchEvent[]): string[] {
  let out = "";
  const p = createPlainOutput((t) => (out += t), { color: false, width: 120 });
  for (const e of events) p.push(e);
  return out.split("\n").filter(Boolean);
}

describe("the worker a branch runs on", () => {
  test("each branch row names its worker; a cut-off branch says so until another worker takes it", () => {
    const text = rows(fleetRun());
    expect(row(text, "item-0")).toMatch(/#0 item-0 .*PASSED\s+on w-alpha$/);
    expect(row(text, "item-1")).toMatch(/#1 item-1 .*FAILED\s+on w-gamma$/);
    expect(row(text, "item-2")).toMatch(/cut off on w-alpha$/);
    expect(row(rows(withSecondAttempt(fleetRun())), "item-2")).toMatch(/on w-beta$/);
    expect(row(rows(withSecondAttempt(fleetRun())), "item-2")).not.toContain("cut off");
  });

  test("a branch run in process shows no worker", () => {
    const local = fleetRun()
      .map((e) => {
        const { remote: _r, ...rest } = e;
        return rest as VouchEvent;
      })
      .filter((e) => e.type !== "branch.cut_off" && e.type !== "branch.dispatched");
    const text = rows(local);
    expect(text.join("\n")).not.toMatch(/\bon w-|cut off/);
  });

  test("the branch's and the node's details name the worker and the cut-off attempt", () => {
    const s = reduceAll(withSecondAttempt(fleetRun()));
    const branch = selectDetails(s, "each#2", { now: NOW, width: 80 }).map(lineText);
    expect(branch.find((l) => l.startsWith("worker"))).toMatch(/^worker\s+w-beta$/);
    expect(branch.find((l) => l.startsWith("cut off"))).toMatch(/^cut off\s+attempt 1 on w-alpha: handed to another worker$/);
    const node = selectDetails(s, "each#1/work", { now: NOW, width: 80 }).map(lineText);
    expect(node.find((l) => l.startsWith("worker"))).toMatch(/^worker\s+w-gamma$/);
  });

  test("plain lines: a branch's end and a failed node say where they ran; a cut-off attempt has its own line", () => {
    const lines = plain(fleetRun());
    expect(lines.find((l) => l.includes("each[0]"))).toMatch(/each\[0\] item-0\s+PASSED\s+on w-alpha$/);
    expect(lines.find((l) => l.includes("each[1].work"))).toMatch(/on w-gamma$/);
    expect(lines.find((l) => l.includes("each[1] item-1"))).toMatch(/FAILED\s+on w-gamma$/);
    expect(lines.find((l) => l.includes("cut off"))).toBe("↻ each[2] attempt 1 cut off on w-alpha: another worker takes the branch");
  });

  test("an attempt cut off before it sent anything, and a refused result: their rows, details and plain lines", () => {
    const events = fleetRun();
    const at = events.at(-1)!;
    const next = (e: Record<string, unknown>, i: number) => ({ v: 1, run: at.run, t: at.t, seq: at.seq + 1 + i, ...e }) as VouchEvent;
    events.push(
      next({ type: "branch.cut_off", branch: ref(1), job: "r.each.1.1", attempt: 2, worker: "" }, 0),
      next(
        {
          type: "branch.result_refused",
          branch: ref(0),
          job: "r.each.0.1",
          attempt: 1,
          worker: "w-alpha",
          status: "failed",
          reason: "attempt 1 no longer held the job",
        },
        1,
      ),
    );
    const lines = plain(events);
    expect(lines).toContain("↻ each[1] attempt 2 cut off before it sent anything: another worker takes the branch");
    expect(lines).toContain("↻ each[0] attempt 1's result (failed) on w-alpha refused: it no longer held the job");
    const details = selectDetails(reduceAll(events), "each#1", { now: NOW, width: 80 }).map(lineText);
    expect(details.find((l) => l.includes("attempt 2"))).toMatch(/^cut off\s+attempt 2 before it sent anything: handed to another worker$/);
    expect(row(rows(events), "item-1")).toMatch(/cut off$/);
  });

  test("a hostile worker name: no escape sequence or control character reaches the screen, a long one is cut on the row", () => {
    const hostile = `\u001b]0;pwned\u0007\u001b[2J\u001b[31mevil\r\nname${"x".repeat(200)}`;
    const events = fleetRun(hostile);
    const text = [...rows(events), ...selectDetails(reduceAll(events), "each#1", { now: NOW, width: 80 }).map(lineText), ...plain(events)];
    for (const l of text) expect(l).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u009b]/);
    const r = row(rows(events, 200), "item-1");
    expect(r).toMatch(/on evil namex+…$/);
    expect(displayWidth(r.slice(r.indexOf("on evil") + 3))).toBe(WORKER_WIDTH);
  });

  test("any worker name (property): rows stay within the width and hold no control character", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.integer({ min: 40, max: 160 }), (name, width) => {
        const text = rows(fleetRun(name), width);
        for (const l of text) {
          expect(displayWidth(l)).toBeLessThanOrEqual(width);
          expect(l).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
        }
      }),
      { numRuns: 60 },
    );
  });
});
