// A rate-limited sitting can wait minutes while the harness retries: the
// plain log prints one line per retry (never twice for one), and the TUI's
// row shows the retry as the node's activity.
import { describe, expect, test } from "vitest";
import type { EventBody } from "../../src/engine/events.ts";
import { lineText } from "../../src/tui/lines.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { reduceAll, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder } from "./helpers/event-builder.ts";

function retrying(): RunRecorder {
  const r = new RunRecorder();
  r.started([{ id: "ask", kind: "agent", needs: [] }]);
  r.emit({ type: "node.started", node: "ask", kind: "agent", attempt: 1, harness: "claude" });
  const progress = (p: Partial<Extract<EventBody, { type: "node.progress" }>>): EventBody => ({
    type: "node.progress",
    node: "ask",
    attempt: 1,
    turns: 0,
    ...p,
  });
  r.emit(progress({ activity: "API retry 1/10, 429", api_retries: 1 }));
  r.emit(progress({ activity: "API retry 2/10, 429", api_retries: 2 }));
  // Later progress repeats the count: no new line.
  r.emit(progress({ activity: "API retry 2/10, 429", api_retries: 2 }));
  r.emit(progress({ turns: 1, activity: "Hello", api_retries: 2 }));
  return r;
}

describe("API retries", () => {
  test("plain: one line per retry, with the harness's words", async () => {
    let text = "";
    const out = createPlainOutput((t) => (text += t), { color: false, width: 200 });
    for (const e of retrying().events) out.push(e);
    await out.close();
    expect(text.split("\n").filter((l) => l.includes("API retry"))).toEqual(["↻ ask API retry 1/10, 429", "↻ ask API retry 2/10, 429"]);
  });

  test("the TUI row shows the retry while it waits", () => {
    const r = retrying();
    const events = r.events.slice(0, 4);
    const rows = selectFrame(reduceAll(events), { width: 100, height: 20, now: 0 }).lines.map(lineText);
    expect(rows.some((l) => l.includes("ask") && l.includes("API retry 2/10, 429"))).toBe(true);
  });
});
