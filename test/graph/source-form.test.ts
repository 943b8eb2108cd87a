// A loaded graph written back in its file's form validates again to the same graph:
// a branch job carries the loaded graph cut to its map, and the worker validates it
// (ADR 0030). Before, a branch with any duration (wall, idle, timeout, backoff) was
// refused on every worker: "the job's graph does not validate on this worker".
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { graphSchema, type GraphFile } from "../../src/engine/graph/schema.ts";
import { sourceForm } from "../../src/engine/graph/source-form.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";

const VALID = join(import.meta.dirname, "valid");
const again = (g: unknown) => graphSchema.safeParse(JSON.parse(JSON.stringify(sourceForm(graphSchema as never, g))));

function load(text: string): GraphFile {
  const r = loadGraph("g.yaml", text);
  if (!r.graph) throw new Error(JSON.stringify(r.problems));
  return r.graph;
}

const DURATIONS = `version: 1
name: durations
caps: { wall: 1h30m }
defaults:
  caps: { wall: 90s, idle: 250ms }
  retry: { max: 2, backoff: 1.5s }
checks:
  slow: { run: "true", timeout: 10m }
nodes:
  items: { kind: script, run: "echo [1]", output: { format: json }, timeout: 5s }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      pay: { kind: agent, harness: claude, prompt: do it, caps: { wall: 60s, idle: 1m, turns: 3, budget_usd: 0.5 }, retry: { max: 3, backoff: 2s } }
      hold:
        kind: script
        needs: [pay]
        run: "true"
        timeout: 2h
        success: { checks: [slow, { name: inline, run: "true", timeout: 30s }] }
`;

describe("a loaded graph in its source form", () => {
  test("every valid example graph validates again to the same graph", () => {
    const files = readdirSync(VALID).filter((f) => f.endsWith(".yaml"));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      // planned.yaml merges a checks file (checks_from): its checks come back too.
      const r = loadGraph(join(VALID, f), readFileSync(join(VALID, f), "utf8"), { readChecks: (p) => ({ text: readFileSync(p, "utf8") }) });
      expect(r.problems, f).toEqual([]);
      if (!r.graph) continue;
      const back = again(r.graph);
      expect(back.success, `${f}: ${back.error?.message}`).toBe(true);
      expect(back.data).toEqual(r.graph);
    }
  });

  test("every kind of duration (run, defaults, node caps, retry backoff, script and check timeouts) comes back", () => {
    const g = load(DURATIONS);
    const back = again(g);
    expect(back.error?.message).toBeUndefined();
    expect(back.data).toEqual(g);
  });

  test("a branch job's graph validates on the worker to the coordinator's map node", () => {
    const g = load(DURATIONS);
    const ctx = {
      options: { graph: g, runId: "r1", graphDigest: "d", graphPath: "g.yaml", baseDir: "/", version: "0" },
      inputs: {},
      limits: { concurrency: 1 },
      resume: null,
    } as unknown as RunContext;
    const job = branchJob(ctx, "each", g.nodes.each as never, 0, 1, {}, "redis");
    const parsed = graphSchema.safeParse(JSON.parse(JSON.stringify(job.graph)));
    expect(parsed.error?.message).toBeUndefined();
    expect(parsed.data!.nodes.each).toEqual(g.nodes.each);
    expect(parsed.data!.defaults).toEqual(g.defaults);
    expect(parsed.data!.checks).toEqual(g.checks);
  });

  test("any whole number of milliseconds survives (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 1, max: 600_000 }), (wall, timeout) => {
        const g = {
          version: 1,
          name: "p",
          nodes: { a: { kind: "script", run: "true", timeout: wall, success: { checks: [{ name: "c", run: "true", timeout }] } } },
        };
        const back = again(g);
        expect(back.error?.message).toBeUndefined();
        expect(back.data).toEqual(g);
      }),
    );
  });

  test("values the schema does not describe and hostile keys pass through as they are", () => {
    const g = JSON.parse(
      '{"version":1,"name":"h","nodes":{"a":{"kind":"script","run":"true","output":{"format":"json","schema":{"type":"object","properties":{"__proto__":{"type":"number"},"wall":5}}}}}}',
    );
    const form = sourceForm(graphSchema as never, g) as typeof g;
    expect(JSON.stringify(form)).toBe(JSON.stringify(g));
    expect(Object.hasOwn(form.nodes.a.output.schema.properties, "__proto__")).toBe(true);
  });
});
