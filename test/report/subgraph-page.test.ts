// A sub-graph on the report page, from a real run through dist/vouch: the graph
// node's section holds its sub-graph's nodes, and a nested sub-graph's inside
// that (ADR 0024 ids: review/lint, review/deep/fmt), each node exactly once.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { pageShape } from "./well-formed.ts";
import { SVG_TAGS, PAGE_TAGS } from "./well-formed.ts";

const TOP = `version: 1
name: top
nodes:
  first: { kind: script, run: "true" }
  review: { kind: graph, use: ./sub/review.yaml, needs: [first] }
  last: { kind: script, run: "true", needs: [review] }
`;
const REVIEW = `version: 1
name: review
nodes:
  lint: { kind: script, run: "true" }
  deep: { kind: graph, use: ./deep.yaml, needs: [lint] }
`;
const DEEP = `version: 1
name: deep
nodes:
  fmt: { kind: script, run: "true" }
`;

let dir: TempDir;
let page: string;
beforeAll(async () => {
  ensureBinary();
  dir = tempDir("subgraph-page");
  mkdirSync(join(dir.path, "sub"));
  writeFileSync(join(dir.path, "top.yaml"), TOP);
  writeFileSync(join(dir.path, "sub", "review.yaml"), REVIEW);
  writeFileSync(join(dir.path, "sub", "deep.yaml"), DEEP);
  const home = join(dir.path, "home");
  expect((await vouch(["run", "top.yaml", "--plain"], { home, cwd: dir.path })).code).toBe(0);
  const r = await vouch(["report", "last"], { home, cwd: dir.path });
  expect(r.code, r.stderr).toBe(0);
  page = r.stdout;
}, 60_000);
afterAll(() => dir.cleanup());

/** The markup of the element that starts at `start` (`<details …>` up to its own `</details>`). */
function element(markup: string, start: number): string {
  let depth = 0;
  for (const m of markup.slice(start).matchAll(/<(\/?)details\b[^>]*>/g)) {
    depth += m[1] === "/" ? -1 : 1;
    if (depth === 0) return markup.slice(start, start + m.index! + m[0].length);
  }
  throw new Error("unclosed");
}

describe("a sub-graph's nodes on the page", () => {
  test("folded under their graph node, nested, each once", () => {
    const nodes = page.slice(page.indexOf("<h2>Nodes</h2>"), page.indexOf("<h2>Timeline</h2>"));
    expect([...nodes.matchAll(/id="node-([^"]+)"/g)].map((m) => m[1])).toEqual([
      "first",
      "review",
      "review/lint",
      "review/deep",
      "review/deep/fmt",
      "last",
    ]);
    const review = element(nodes, nodes.indexOf('<details class="node" id="node-review"'));
    expect(review).toContain('id="node-review/lint"');
    expect(review).toContain('id="node-review/deep/fmt"');
    expect(review).not.toContain('id="node-last"');
    const deep = element(review, review.indexOf('<details class="node" id="node-review/deep"'));
    expect(deep).toContain('id="node-review/deep/fmt"');
    expect(deep).not.toContain('id="node-review/lint"');
    expect(pageShape(page, new Set([...PAGE_TAGS, ...SVG_TAGS])).problems).toEqual([]);
  });
});
