// Loading a graph is a one-shot parse: zod's eval-compiled fast path costs more
// to generate than it saves (first parse of graphs/finding-verifier.yaml 17 ms
// -> 5-7 ms; a 2,000-node graph 35-42 ms either way), and it is paid at every
// `vouch validate` and `vouch run` start. The loader parses with { jitless: true }:
// no code is generated. (Found by the start-up benchmark, bench/startup.ts.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
// zod is loaded by the loader only for a graph the fast check is not sure of (ADR 0083);
// building its object schemas probes once whether `new Function` is allowed. Loaded here,
// outside the counter: the probe compiles no parser, and the test is about the parse.
import "../../src/engine/graph/graph-zod.ts";

const ROOT = join(import.meta.dirname, "..", "..");

function countCompiled(run: () => void): number {
  const real = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(real, {
    construct(target, args) {
      compiled++;
      return Reflect.construct(target, args);
    },
    apply(target, self, args) {
      compiled++;
      return Reflect.apply(target, self, args);
    },
  });
  try {
    run();
  } finally {
    globalThis.Function = real;
  }
  return compiled;
}

test("loading a valid and an invalid graph generates no code (new Function)", () => {
  const text = readFileSync(join(ROOT, "graphs", "finding-verifier.yaml"), "utf8");
  expect(countCompiled(() => expect(loadGraph("g.yaml", text).problems).toEqual([]))).toBe(0);
  const broken = "version: 1\nname: b\nnodes:\n  a: { kind: agent, promt: hi }\n  b: { kind: end, needs: [zz] }\n";
  expect(countCompiled(() => expect(loadGraph("b.yaml", broken).problems.length).toBeGreaterThan(0))).toBe(0);
});

test("the counter sees zod's fast path when it is on (the test can fail)", async () => {
  const { graphSchema } = await import("../../src/engine/graph/schema.ts");
  const raw = { version: 1, name: "x", nodes: { a: { kind: "script", run: "true" } } };
  expect(countCompiled(() => graphSchema.safeParse(raw))).toBeGreaterThan(0);
});
