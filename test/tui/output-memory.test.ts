// The plain writer and the live UI's store keep bounded state for finished branches
// (issue 29, ADR 0078): fed the events of a 10,000-item map as the engine emits them,
// their live heap (after a full collection) grows by no more than the engine's own
// result record per branch, and what they show still counts every branch. Bounds are
// bytes and rows, never time.
import { heapStats } from "bun:jsc";
import { describe, expect, test } from "vitest";
import { systemClock } from "../../src/engine/clock.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import type { AgentRunner, Ledger } from "../../src/engine/ports.ts";
import { runGraph } from "../../src/engine/run.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { createTuiStore } from "../../src/tui/tui-store.ts";
import { KEEP_PASSED_BRANCHES } from "../../src/tui/view-fold.ts";
import { selectBodyRows } from "../../src/tui/view-rows.ts";
import { lineText } from "../../src/tui/lines.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { ManualScheduler } from "./helpers/fake-terminal.ts";

const ITEMS = 10_000;
const EARLY = 2_000;
/** ADR 0078: the engine keeps ~64 bytes per finished branch; the plain writer and the live UI,
 *  before they let finished branches go, kept their whole view (~1,400 bytes each here). */
const MAX_BYTES_PER_BRANCH = 300;

const graph = graphSchema.parse({
  version: 1,
  name: "plain-flat",
  concurrency: 8,
  inputs: { items: { required: true } },
  nodes: { each: { kind: "map", over: "inputs.items", as: "item", branch: { work: { kind: "agent", prompt: "check {{ item }}" } } } },
});

const agents: AgentRunner = {
  refuse: () => [],
  run: async (_a, hooks) => {
    hooks.onProgress({ turns: 1, costUsd: 0, activity: "checking" });
    await Promise.resolve();
    return {
      stopReason: "complete",
      resultText: "checked",
      turns: 1,
      costUsd: 0,
      tokens: null,
      wallMs: 1,
      permissionDenials: 0,
      exitCode: 0,
      stderrTail: "",
    };
  },
};

/** Runs the map, each event to `consume`; the live heap's growth per finished branch between EARLY and ITEMS. */
async function bytesPerBranch(consume: (e: VouchEvent) => void): Promise<number> {
  const samples = new Map<number, number>();
  let finished = 0;
  const ledger: Ledger = {
    append: (e) => {
      consume(e);
      if (e.type !== "branch.finished" || (++finished !== EARLY && finished !== ITEMS)) return;
      Bun.gc(true);
      samples.set(finished, heapStats().heapSize);
    },
  };
  const items = Array.from({ length: ITEMS }, (_, i) => `item-${i}`);
  const ports = { agents, ledger, clock: systemClock };
  const outcome = await runGraph({
    runId: "p",
    graph,
    graphPath: "p.yaml",
    graphDigest: "x",
    inputs: { items },
    baseDir: "/tmp",
    ports,
    version: "t",
  });
  expect(outcome.status).toBe("passed");
  return (samples.get(ITEMS)! - samples.get(EARLY)!) / (ITEMS - EARLY);
}

describe("outputs at scale", () => {
  test(`plain lines, ${ITEMS.toLocaleString("en")} branches: the writer's heap grows under ${MAX_BYTES_PER_BRANCH} bytes per finished branch, its end lines count them all`, async () => {
    let tail: string[] = [];
    let printed = 0;
    const plain = createPlainOutput(
      (t) => {
        const lines = t.split("\n").slice(0, -1);
        printed += lines.length;
        tail = [...tail, ...lines].slice(-4);
      },
      { color: false, width: 200 },
    );
    const bytes = await bytesPerBranch((e) => plain.push(e));
    await plain.close();
    console.log(`[output-memory] plain: per finished branch (engine and writer): ${bytes.toFixed(1)} bytes`);
    expect(bytes).toBeLessThan(MAX_BYTES_PER_BRANCH);
    // One line per branch, the map's, the run's start (2) and end (2).
    expect(printed).toBeGreaterThanOrEqual(ITEMS + 5);
    expect(tail.some((l) => l.includes(`${ITEMS + 1} passed`))).toBe(true);
  });

  test(`the live UI's store, ${ITEMS.toLocaleString("en")} branches: under ${MAX_BYTES_PER_BRANCH} bytes per finished branch; the newest ${KEEP_PASSED_BRANCHES} passed are listed, the rest counted`, async () => {
    const store = createTuiStore({ scheduler: new ManualScheduler() });
    const bytes = await bytesPerBranch((e) => store.push(e));
    console.log(`[output-memory] live UI store: per finished branch (engine and store): ${bytes.toFixed(1)} bytes`);
    expect(bytes).toBeLessThan(MAX_BYTES_PER_BRANCH);
    store.flush();
    const state = store.getSnapshot().state;
    expect(state.maps.each!.finished).toBe(ITEMS);
    const text = (fold?: "open") =>
      selectBodyRows(state, { now: 0, selected: null, ...(fold ? { fold: { each: fold } } : {}) }).map(lineText);
    expect(text().some((l) => l.includes(`+ ${ITEMS} passed branches folded`))).toBe(true);
    const open = text("open");
    const listed = open.filter((l) => /#\d+ +item-\d+/.test(l));
    expect(listed).toHaveLength(KEEP_PASSED_BRANCHES);
    expect(listed[0]).toContain(`item-${ITEMS - KEEP_PASSED_BRANCHES}`);
    expect(open.some((l) => l.includes(`+ ${ITEMS - KEEP_PASSED_BRANCHES} earlier passed branches not kept here`))).toBe(true);
    store.stop();
  });
});
