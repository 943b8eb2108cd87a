// The plain writer keeps bounded state for finished branches (issue 29, ADR 0078): fed
// the events of a 10,000-item map as the engine emits them, its live heap (after a full
// collection) grows by no more than the engine's own result record per branch, and its
// last lines still count every branch and every seal. Bounds are bytes, never time.
import { heapStats } from "bun:jsc";
import { describe, expect, test } from "vitest";
import { systemClock } from "../../src/engine/clock.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import type { AgentRunner, Ledger } from "../../src/engine/ports.ts";
import { runGraph } from "../../src/engine/run.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";

const ITEMS = 10_000;
const EARLY = 2_000;
/** ADR 0078: the engine keeps ~64 bytes per finished branch; the plain writer, before it let
 *  finished branches go, kept their whole view (1,391 bytes each here). */
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

describe("plain output at scale", () => {
  test(`${ITEMS.toLocaleString("en")} branches: the writer's heap grows under ${MAX_BYTES_PER_BRANCH} bytes per finished branch, its end lines count them all`, async () => {
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
    const samples = new Map<number, number>();
    let finished = 0;
    const ledger: Ledger = {
      append: (e) => {
        plain.push(e);
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
    await plain.close();
    expect(outcome.status).toBe("passed");
    const bytes = (samples.get(ITEMS)! - samples.get(EARLY)!) / (ITEMS - EARLY);
    console.log(`[plain-memory] per finished branch (engine and plain writer): ${bytes.toFixed(1)} bytes`);
    expect(bytes).toBeLessThan(MAX_BYTES_PER_BRANCH);
    // One line per branch, the map's, the run's start (2) and end (2, and the seals when recorded).
    expect(printed).toBeGreaterThanOrEqual(ITEMS + 5);
    expect(tail.some((l) => l.includes(`${ITEMS + 1} passed`))).toBe(true);
  });
});
