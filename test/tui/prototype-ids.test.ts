// The view model with ids that are Object.prototype members (issue 12 item 7).
// Graphs refuse them at load, but a ledger from another version may hold them:
// the reducer, the frame, the details and the plain writer treat them as
// ordinary ids. Before, `constructor` found Object's constructor as its prior
// view (`o.attempts.filter` crashed) and `__proto__` replaced the prototype.
import { describe, expect, test } from "vitest";
import type { EventBody } from "../../src/engine/events.ts";
import { lineText } from "../../src/tui/lines.ts";
import { plainLines } from "../../src/tui/plain-lines.ts";
import { initialState, reduce, selectDetails, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder, ZERO } from "./helpers/event-builder.ts";

const IDS = ["constructor", "__proto__", "toString", "hasOwnProperty"];
const NOW = Date.parse("2026-11-29T10:01:00.000Z");

function events() {
  const r = new RunRecorder();
  const nodes = [
    ...IDS.map((id) => ({ id, kind: "script", needs: [] })),
    { id: "valueOf", kind: "map", needs: [] },
    { id: "isPrototypeOf", kind: "script", needs: [], map: "valueOf" },
  ];
  r.started(nodes);
  const finished = (node: string, extra = {}): EventBody =>
    ({
      type: "node.finished",
      node,
      attempt: 1,
      status: "passed",
      qualifier: "exit-only",
      stop_reason: null,
      cause: null,
      cost_usd: 0,
      turns: null,
      wall_ms: 5,
      ...extra,
    }) as EventBody;
  for (const id of IDS.slice(0, 3)) r.emit({ type: "node.started", node: id, kind: "script", attempt: 1 }).emit(finished(id));
  const branch = { map: "valueOf", index: 0 };
  r.emit({ type: "node.started", node: "valueOf", kind: "map", attempt: 1, items: 1 });
  r.emit({ type: "branch.started", branch, item: "x", label: "x" } as EventBody);
  r.emit({ type: "node.started", node: "isPrototypeOf", kind: "script", attempt: 1, branch } as EventBody).emit(
    finished("isPrototypeOf", { branch }),
  );
  r.emit({ type: "branch.finished", branch, status: "passed", verdict: null } as EventBody);
  r.emit(finished("valueOf"));
  r.emit({
    type: "run.finished",
    status: "passed",
    exit_code: 0,
    cost_usd: 0,
    cost_unknown: 0,
    wall_ms: 900,
    counts: { ...ZERO, passed: 5 },
  });
  return r.events;
}

describe("ids named like Object.prototype members in the view", () => {
  test("every event reduces, prints and renders; each id is its own row", () => {
    let s = initialState();
    const printed: string[] = [];
    for (const e of events()) {
      s = reduce(s, e);
      printed.push(...plainLines(s, e).map(lineText));
    }
    expect(Object.getPrototypeOf(s.nodes)).toBe(Object.prototype);
    for (const id of [...IDS, "valueOf"]) expect(Object.hasOwn(s.nodes, id)).toBe(true);
    expect(s.nodes["constructor"]!.status).toBe("passed");
    expect(s.nodes["hasOwnProperty"]!.status).toBe("pending");
    const text = selectFrame(s, { width: 100, height: 40, now: NOW }).lines.map(lineText).join("\n");
    for (const id of [...IDS, "valueOf"]) expect(text).toContain(id);
    for (const id of [...IDS, "valueOf"]) expect(() => selectDetails(s, id, { now: NOW, width: 80 })).not.toThrow();
    expect(printed.join("\n")).toContain("✓ __proto__ passed");
    expect(printed.join("\n")).toContain("✓ valueOf[0] x  PASSED");
  });
});
