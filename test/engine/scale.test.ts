// A 10,000-item map on an instant fake runner completes with bounded memory.
// Measured figures are printed; only memory and counts are asserted (no speed).
import { describe, expect, test } from "vitest";
import { eventSchema, type VouchEvent } from "../../src/engine/events.ts";
import { benchMap } from "./scale/map-bench.ts";

describe("scale", () => {
  test("10,000 branches: all results in input order, every event valid, peak RSS growth under 150 MB, nothing retained", async () => {
    let branchFinished = 0;
    let nextIndex = 0;
    let inOrder = true;
    let invalid = 0;
    let mapOutput: { results: { index: number; item: { id: string }; verdict: string; output: { id: string } }[] } | undefined;
    const r = await benchMap(10_000, (e: VouchEvent) => {
      // Validate a sample: parsing all 50,000 events with zod would measure zod, not the engine.
      if (e.seq % 97 === 0 || e.type !== "node.progress") if (!eventSchema.safeParse(e).success) invalid++;
      if (e.type === "branch.finished") branchFinished++;
      if (e.type === "node.finished" && e.node === "each") mapOutput = e.output as typeof mapOutput;
      if (e.type === "branch.started") {
        if (e.branch.index !== nextIndex) inOrder = false;
        nextIndex++;
      }
    });
    console.log(
      `[scale] 10k map: ${r.ms} ms, RSS ${r.rssBeforeMb} MB before, ${r.peakRssMb} MB peak, ${r.retainedHeapMb} MB heap retained, ${r.events} events`,
    );
    expect(r.outcome.status).toBe("passed");
    expect(invalid).toBe(0);
    expect(branchFinished).toBe(10_000);
    expect(inOrder).toBe(true); // branches start in input order
    expect(r.maxLiveSittings).toBeLessThanOrEqual(16);
    const results = mapOutput!.results;
    expect(results).toHaveLength(10_000);
    expect(results.every((x, i) => x.index === i && x.item.id === `F-${i}` && x.output.id === `F-${i}`)).toBe(true);
    expect(results.filter((x) => x.verdict === "REFUTED")).toHaveLength(Math.ceil(10_000 / 7));
    expect(r.outcome.output).toEqual({ n: 10_000 });
    expect(r.peakRssMb - r.rssBeforeMb).toBeLessThan(150);
    // Nothing per branch outlives the run: keeping every branch scope alive retains ~28 MB here.
    expect(r.retainedHeapMb).toBeLessThan(15);
  });

  test("1,000 branches for comparison", async () => {
    const r = await benchMap(1000);
    console.log(
      `[scale] 1k map: ${r.ms} ms, RSS ${r.rssBeforeMb} MB before, ${r.peakRssMb} MB peak, ${r.retainedHeapMb} MB heap retained, ${r.events} events`,
    );
    expect(r.outcome.counts.passed).toBe(1000 + 2); // 1000 branch nodes + the map + the end
    expect(r.peakRssMb - r.rssBeforeMb).toBeLessThan(150);
  });
});
