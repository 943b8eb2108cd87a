// A map of N items on an instant fake runner: time and peak RSS.
// Run alone: node_modules/.bin/bun test/engine/scale/map-bench.ts 10000
import { graphSchema } from "../../../src/engine/graph/schema.ts";
import { runGraph, type RunOutcome } from "../../../src/engine/run.ts";
import { systemClock } from "../../../src/engine/clock.ts";
import type { AgentRunner, Ledger } from "../../../src/engine/ports.ts";
import type { VouchEvent } from "../../../src/engine/events.ts";

export interface MapBench {
  items: number;
  ms: number;
  rssBeforeMb: number;
  peakRssMb: number;
  /** Heap still held after the run and a full GC (leaks show here). */
  retainedHeapMb: number;
  events: number;
  outcome: RunOutcome;
  maxLiveSittings: number;
}

export async function benchMap(items: number, onEvent: (e: VouchEvent) => void = () => {}): Promise<MapBench> {
  const graph = graphSchema.parse({
    version: 1,
    name: "scale",
    concurrency: 16,
    inputs: { findings: { required: true } },
    nodes: {
      each: {
        kind: "map",
        over: "inputs.findings",
        as: "finding",
        branch: {
          verify: {
            kind: "agent",
            prompt: "Check {{ finding | json }}",
            output: { format: "json", schema: { type: "object", required: ["verdict"] } },
            stamp: { id: "{{ finding.id }}" },
          },
        },
        verdict: "output.verdict",
      },
      done: { kind: "end", needs: ["each"], output: { n: "{{ nodes.each.output.counts.passed }}" } },
    },
  });
  const findings = Array.from({ length: items }, (_, i) => ({ id: `F-${i}`, file: `src/file${i % 97}.ts`, claim: `claim number ${i}` }));
  let live = 0;
  let maxLive = 0;
  const agents: AgentRunner = {
    refuse: () => [],
    run: async (a, hooks) => {
      live++;
      maxLive = Math.max(maxLive, live);
      hooks.onProgress({ turns: 1, costUsd: 0.0001 });
      await Promise.resolve();
      live--;
      return {
        stopReason: "complete",
        resultText: `{"verdict":"${a.branch!.index % 7 === 0 ? "REFUTED" : "CONFIRMED"}"}`,
        turns: 1,
        costUsd: 0.0001,
        tokens: null,
        wallMs: 1,
        permissionDenials: 0,
        exitCode: 0,
        stderrTail: "",
      };
    },
  };
  let events = 0;
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const ledger: Ledger = {
    append: (e) => {
      events++;
      onEvent(e);
      if (events % 500 === 0) sample();
    },
  };
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const outcome = await runGraph({
    runId: "scale",
    graph,
    graphPath: "scale.yaml",
    graphDigest: "x",
    inputs: { findings },
    baseDir: "/tmp",
    ports: { agents, ledger, clock: systemClock },
    version: "bench",
  });
  const ms = performance.now() - t0;
  sample();
  Bun.gc(true);
  const retained = process.memoryUsage().heapUsed - heapBefore;
  const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
  return {
    items,
    ms: Math.round(ms),
    rssBeforeMb: mb(before),
    peakRssMb: mb(peak),
    retainedHeapMb: mb(retained),
    events,
    outcome,
    maxLiveSittings: maxLive,
  };
}

if (import.meta.main) {
  const n = Number(process.argv[2] ?? 10_000);
  const r = await benchMap(n);
  console.log(
    JSON.stringify({
      items: r.items,
      ms: r.ms,
      rssBeforeMb: r.rssBeforeMb,
      peakRssMb: r.peakRssMb,
      retainedHeapMb: r.retainedHeapMb,
      events: r.events,
      status: r.outcome.status,
      maxLiveSittings: r.maxLiveSittings,
    }),
  );
}
