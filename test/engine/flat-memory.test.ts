// A finished branch leaves nothing in the engine but its result record (issue 29,
// ADR 0078): a 20,000-item map on an instant fake runner, the live heap measured
// after a full collection when 5,000 and when 20,000 branches have finished. What
// grows in between is what each finished branch retains. Bounds are bytes and
// objects, never time.
import { heapStats } from "bun:jsc";
import { describe, expect, test } from "vitest";
import { systemClock } from "../../src/engine/clock.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import type { AgentRunner, Ledger } from "../../src/engine/ports.ts";
import { runGraph } from "../../src/engine/run.ts";

const ITEMS = 20_000;
const EARLY = 5_000;
/** ADR 0078: measured 64–66 bytes and 0.9–1.0 objects per finished branch (its BranchResult, which
 *  the map's output needs). Broken on purpose, a branch that kept its scope retained 2,842 bytes
 *  and 43 objects; one whose finished session stayed in the run's book, 342 bytes and 2.9. */
const MAX_BYTES_PER_BRANCH = 200;
const MAX_OBJECTS_PER_BRANCH = 1.5;

const graph = graphSchema.parse({
  version: 1,
  name: "flat",
  concurrency: 8,
  inputs: { items: { required: true } },
  nodes: {
    each: { kind: "map", over: "inputs.items", as: "item", branch: { work: { kind: "agent", prompt: "check {{ item }}" } } },
    done: { kind: "end", needs: ["each"], output: { n: "{{ nodes.each.output.counts.passed }}" } },
  },
});

// One shared result text: what grows is the engine's, not distinct outputs (an output a later
// node may read is kept by design: it is part of the map's output).
const agents: AgentRunner = {
  refuse: () => [],
  run: async (_a, hooks) => {
    hooks.onProgress({ turns: 1, costUsd: 0 });
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

describe("flat memory", () => {
  test(`a ${ITEMS.toLocaleString("en")}-item map: live heap grows at most ${MAX_BYTES_PER_BRANCH} bytes and ${MAX_OBJECTS_PER_BRANCH} objects per finished branch`, async () => {
    const samples = new Map<number, { bytes: number; objects: number }>();
    let finished = 0;
    let mapOutput: { results: unknown[] } | undefined;
    const ledger: Ledger = {
      append: (e) => {
        if (e.type === "node.finished" && e.node === "each") mapOutput = e.output as typeof mapOutput;
        if (e.type !== "branch.finished") return;
        finished++;
        if (finished === EARLY || finished === ITEMS) {
          Bun.gc(true);
          const s = heapStats();
          samples.set(finished, { bytes: s.heapSize, objects: s.objectCount });
        }
      },
    };
    const items = Array.from({ length: ITEMS }, (_, i) => `item-${i}`);
    const outcome = await runGraph({
      runId: "flat",
      graph,
      graphPath: "flat.yaml",
      graphDigest: "x",
      inputs: { items },
      baseDir: "/tmp",
      ports: { agents, ledger, clock: systemClock },
      version: "test",
    });
    expect(outcome.status).toBe("passed");
    expect(outcome.output).toEqual({ n: ITEMS });
    // The results are still whole: releasing a branch never drops its summary.
    expect(mapOutput?.results).toHaveLength(ITEMS);
    const early = samples.get(EARLY)!;
    const late = samples.get(ITEMS)!;
    const bytes = (late.bytes - early.bytes) / (ITEMS - EARLY);
    const objects = (late.objects - early.objects) / (ITEMS - EARLY);
    console.log(`[flat-memory] per finished branch: ${bytes.toFixed(1)} bytes, ${objects.toFixed(2)} objects`);
    expect(bytes).toBeLessThan(MAX_BYTES_PER_BRANCH);
    expect(objects).toBeLessThan(MAX_OBJECTS_PER_BRANCH);
  });
});
