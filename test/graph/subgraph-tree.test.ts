// The `use` relation checked at load (ADR 0024), on the pure tree loader with
// an in-memory reader: depth at most 8 below the top graph, cycles of any
// length refused at the use that closes them, and each file read once.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { loadGraphTree, MAX_SUBGRAPH_DEPTH, type GraphReader } from "../../src/engine/graph/subgraph-tree.ts";

const ROOT = "/g";
const file = (i: number) => `${ROOT}/g${i}.yaml`;

/** g0 uses g1 uses … uses g<depth>; with `back`, the last uses g<back> again. */
function chain(depth: number, back?: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = 0; i <= depth; i++) {
    const next = i < depth ? i + 1 : back;
    const use = next === undefined ? "" : `  sub:\n    kind: graph\n    use: ./g${next}.yaml\n`;
    files.set(file(i), `version: 1\nname: g${i}\nnodes:\n  e: { kind: end }\n${use}`);
  }
  return files;
}

function readerOf(files: Map<string, string>, reads: string[] = []): GraphReader {
  return {
    read(path) {
      reads.push(path);
      const text = files.get(path);
      return text === undefined ? { error: "no such file" } : { text, digest: `d-${path}`, realPath: path };
    },
  };
}

function load(files: Map<string, string>, reads?: string[]) {
  return loadGraphTree("g0.yaml", file(0), { text: files.get(file(0))!, digest: "d0", realPath: file(0) }, readerOf(files, reads));
}

describe("use depth and cycles", () => {
  test(`chains of depth 1 to 10: at most ${MAX_SUBGRAPH_DEPTH} accepted, deeper refused at the use of the file at depth ${MAX_SUBGRAPH_DEPTH}`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), (depth) => {
        const r = load(chain(depth));
        if (depth <= MAX_SUBGRAPH_DEPTH) {
          expect(r.problems).toEqual([]);
          expect(r.graph && r.files.size).toBe(depth);
        } else {
          expect(r.graph).toBeNull();
          expect(r.problems).toEqual([
            expect.objectContaining({
              file: `g${MAX_SUBGRAPH_DEPTH}.yaml`,
              line: 7,
              col: 10,
              message: `node "sub": use nests sub-graphs ${MAX_SUBGRAPH_DEPTH + 1} deep; at most ${MAX_SUBGRAPH_DEPTH} are allowed`,
            }),
          ]);
        }
      }),
      { numRuns: 40 },
    );
  });

  test("a cycle of any length is refused at the use that closes it, naming the loop", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7 }).chain((d) => fc.tuple(fc.constant(d), fc.integer({ min: 0, max: d }))),
        ([depth, back]) => {
          const r = load(chain(depth, back));
          expect(r.graph).toBeNull();
          const loop = [...Array(depth - back + 1).keys()].map((i) => `g${back + i}.yaml`);
          expect(r.problems).toEqual([
            expect.objectContaining({
              file: `g${depth}.yaml`,
              line: 7,
              col: 10,
              message: `node "sub": use makes a cycle: ${[...loop, `g${back}.yaml`].join(" → ")}`,
            }),
          ]);
        },
      ),
      { numRuns: 40 },
    );
  });

  test("a file used by many graphs is read and reported once", () => {
    const shared = `version: 1\nname: s\nnodes:\n  e: { kind: end, needs: [nope] }\n`;
    const top = `version: 1\nname: top\nnodes:\n${[0, 1, 2].map((i) => `  u${i}: { kind: graph, use: ./s.yaml }\n`).join("")}`;
    const files = new Map([
      [file(0), top],
      [`${ROOT}/s.yaml`, shared],
    ]);
    const reads: string[] = [];
    const r = load(files, reads);
    expect(r.problems.map((p) => `${p.file}:${p.line}:${p.col}`)).toEqual(["s.yaml:4:27"]);
    expect(reads.filter((p) => p === `${ROOT}/s.yaml`).length).toBe(1);
  });
});
