// A feedback loop's second round is said to be one: plain prints a line when the
// round starts and marks the nodes that ran again; the TUI marks their rows.
import { describe, expect, test } from "vitest";
import type { EventBody } from "../../src/engine/events.ts";
import { lineText } from "../../src/tui/lines.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { reduceAll, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder, ZERO } from "./helpers/event-builder.ts";

function loop(options: { branch?: { map: string; index: number } } = {}) {
  const r = new RunRecorder();
  const b = options.branch ? { branch: options.branch } : {};
  const nodes = [
    { id: "implement", kind: "agent", needs: [] },
    { id: "review", kind: "agent", needs: ["implement"] },
  ];
  r.emit({
    type: "run.started",
    graph: "step",
    graph_path: "step.yaml",
    graph_digest: "d",
    inputs: {},
    caps: { budget_usd: null, wall_ms: null },
    concurrency: 1,
    nodes,
    pass_env: [],
    harness: null,
    resumed: false,
    version: "0",
  });
  const finished = (node: string): EventBody => ({
    type: "node.finished",
    node,
    ...b,
    attempt: 1,
    status: "passed",
    qualifier: "exit-only",
    stop_reason: "complete",
    cause: null,
    cost_usd: 0.01,
    turns: 1,
    wall_ms: 200,
  });
  for (const round of [1, 2]) {
    for (const node of ["implement", "review"]) {
      r.emit({ type: "node.started", node, ...b, kind: "agent", attempt: 1, harness: "replay", round });
      r.emit(finished(node));
    }
  }
  r.emit({
    type: "run.finished",
    status: "passed",
    exit_code: 0,
    cost_usd: 0.04,
    cost_unknown: 0,
    wall_ms: 900,
    counts: { ...ZERO, passed: 2 },
  });
  return r.events;
}

async function plain(events = loop()): Promise<string[]> {
  let text = "";
  const out = createPlainOutput((t) => (text += t), { color: false, width: 200 });
  for (const e of events) out.push(e);
  await out.close();
  return text.split("\n").slice(0, -1);
}

describe("feedback rounds", () => {
  test("plain: one line when round 2 starts, and round 2's node lines say so", async () => {
    const lines = (await plain()).slice(2, -2);
    expect(lines).toEqual([
      "✓ implement passed exit-only  $0.01 · 1 turn · 200ms",
      "✓ review passed exit-only  $0.01 · 1 turn · 200ms",
      "↺ implement round 2: a feedback loop runs it again",
      "✓ implement passed exit-only  $0.01 · 1 turn · 200ms  ↺ round 2",
      "✓ review passed exit-only  $0.01 · 1 turn · 200ms  ↺ round 2",
    ]);
  });

  test("the TUI marks the rows of nodes in their second round", () => {
    const text = selectFrame(reduceAll(loop()), { width: 100, height: 20, now: 0 }).lines.map(lineText);
    expect(text.find((l) => l.includes("implement"))).toMatch(/implement\s+agent\s+passed exit-only  ↺ round 2/);
    expect(text.find((l) => l.includes("review"))).toMatch(/review\s+agent\s+passed exit-only  ↺ round 2/);
  });

  test("no round line or marker on a first pass", async () => {
    const once = loop().filter((e) => !("round" in e && e.round === 2) && !(e.type === "node.finished" && e.seq > 4));
    const lines = await plain(once);
    expect(lines.join("\n")).not.toContain("round");
  });
});
