// Prints what the view model and the writers cost on a 10,000-branch map (30,001 events).
// Run: node_modules/.bin/bun test/tui/helpers/measure.ts   (figures quoted in ADR 0007)
import { createPlainOutput } from "../../../src/tui/plain-output.ts";
import { reduceAll, selectFrame } from "../../../src/tui/view-model.ts";
import { RunRecorder } from "./event-builder.ts";

const r = new RunRecorder();
r.emit({
  type: "run.started",
  graph: "g",
  graph_path: "g",
  graph_digest: "d",
  inputs: {},
  caps: { budget_usd: null, wall_ms: null },
  concurrency: 8,
  nodes: [
    { id: "m", kind: "map", needs: [] },
    { id: "w", kind: "agent", needs: [], map: "m" },
  ],
  pass_env: [],
  harness: null,
  resumed: false,
  version: "0",
});
for (let i = 0; i < 10_000; i++) {
  const branch = { map: "m", index: i };
  r.emit({ type: "branch.started", branch, item: i, label: `item ${i}` });
  r.emit({ type: "node.progress", node: "w", branch, attempt: 1, turns: 1, cost_usd: 0.001 });
  r.emit({ type: "branch.finished", branch, status: "passed", verdict: "OK" });
}
const time = (fn: () => void, n = 1) => {
  const t = performance.now();
  for (let i = 0; i < n; i++) fn();
  return (performance.now() - t) / n;
};
for (let round = 1; round <= 3; round++) {
  let s = reduceAll([]);
  const reduceMs = time(() => (s = reduceAll(r.events)));
  const folded = time(() => selectFrame(s, { width: 120, height: 40, now: 0 }), 20);
  const open = time(() => selectFrame(s, { width: 120, height: 40, now: 0, fold: { m: "open" } }), 20);
  const plain = time(() => {
    const out = createPlainOutput(() => undefined, { color: false, width: 80 });
    for (const e of r.events) out.push(e);
  });
  console.log(
    `round ${round}: ${r.events.length} events — reduce ${reduceMs.toFixed(0)} ms (${((reduceMs * 1000) / r.events.length).toFixed(1)} µs/event), ` +
      `frame folded ${folded.toFixed(1)} ms, frame with all 10,000 rows ${open.toFixed(1)} ms, plain writer ${plain.toFixed(0)} ms`,
  );
}
