// A sub-graph's nodes in the TUI (ADR 0024): rows right under their graph node,
// indented, named by their own id; the selection still keys them by the full id.
import { describe, expect, test } from "vitest";
import { lineText } from "../../src/tui/lines.ts";
import { reduceAll, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder, ZERO } from "./helpers/event-builder.ts";

function events() {
  const r = new RunRecorder();
  const nodes = [
    { id: "implement", kind: "script", needs: [] },
    { id: "review", kind: "graph", needs: ["implement"] },
    { id: "review/lint", kind: "script", needs: [], graph: "review" },
    { id: "review/deep", kind: "graph", needs: ["review/lint"], graph: "review" },
    { id: "review/deep/x", kind: "script", needs: [], graph: "review/deep" },
    { id: "ship", kind: "script", needs: ["review"] },
  ];
  r.started(nodes);
  for (const n of nodes) {
    r.emit({ type: "node.started", node: n.id, kind: n.kind, attempt: 1 });
    r.emit({
      type: "node.finished",
      node: n.id,
      attempt: 1,
      status: "passed",
      qualifier: "exit-only",
      stop_reason: null,
      cause: null,
      cost_usd: null,
      turns: null,
      wall_ms: 5,
    });
  }
  r.emit({
    type: "run.finished",
    status: "passed",
    exit_code: 0,
    cost_usd: 0,
    cost_unknown: 0,
    wall_ms: 50,
    counts: { ...ZERO, passed: nodes.length },
  });
  return r.events;
}

describe("sub-graph rows", () => {
  test("indented under their graph node, by their own id, in graph order", () => {
    const frame = selectFrame(reduceAll(events()), { width: 100, height: 30, now: 0 });
    const rows = frame.lines
      .map(lineText)
      .map((l) => /^[› ] ✓ (.+?)\s+(script|graph)\s+passed/.exec(l)?.[1])
      .filter((x) => x !== undefined);
    expect(rows).toEqual(["implement", "review", "└ lint", "└ deep", "  └ x", "ship"]);
    expect(frame.selectable).toContain("review/deep/x");
  });
});
