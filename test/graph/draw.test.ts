// `vouch graph` pictures: the text tree says what the graph does; Mermaid and
// DOT output are checked structurally (and by Graphviz itself when installed).
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { drawText } from "../../src/engine/graph/draw-text.ts";
import { drawDot, drawMermaid } from "../../src/engine/graph/draw-diagram.ts";
import { drawingEdges } from "../../src/engine/graph/graph-edges.ts";
import { graphOrder } from "../../src/engine/graph/validate.ts";
import type { GraphFile } from "../../src/engine/graph/schema.ts";

function load(text: string): GraphFile {
  // The valid corpus's checks_from entries are relative to test/graph/valid/.
  const readChecks = (p: string) => ({ text: readFileSync(join(import.meta.dirname, "valid", p), "utf8") });
  const r = loadGraph("g.yaml", text, { readChecks });
  if (!r.graph) throw new Error(r.problems.map((p) => `${p.line}:${p.col} ${p.message}`).join("\n"));
  return r.graph;
}
const valid = (name: string) => load(readFileSync(join(import.meta.dirname, "valid", name), "utf8"));
const ALL = ["finding-verifier.yaml", "every-field.yaml", "review-loop.yaml", "map-everything.yaml", "planned.yaml", "yaml-features.yaml"];

// Awkward text everywhere a label can carry it.
const AWKWARD = load(`version: 1
name: 'we"ird \\ name | <x>'
inputs:
  q: { default: 'a"b' }
nodes:
  a-1:
    kind: agent
    prompt: p
  r:
    kind: router
    needs: [a-1]
    routes:
      - when: { nodes.a-1.output: 'say "hi" | <b> \\ &' }
        to: [z]
  z: { kind: end, status: failure }
`);

describe("text", () => {
  test("shows needs, routes with their conditions, otherwise, feedback with max and when", () => {
    const t = drawText(valid("review-loop.yaml"));
    expect(t).toContain("graph review-loop (8 nodes)\n");
    expect(t).toMatch(
      /\nreview +agent, json output\n  needs write\n  feedback → write \(max 3, when nodes\.review\.output\.verdict in \[dirty, unclear\]\)\n/,
    );
    expect(t).toMatch(
      /\ntriage +router\n  needs review\n  only if nodes\.review\.status in \[passed, failed\]\n  when nodes\.review\.output\.verdict = clean and .*→ ship\n/,
    );
    expect(t).toContain("  otherwise → ask_human\n");
    expect(t).toMatch(/\nreject +end \(failure\)\n/);
  });

  test("nests each map's branch under it, and shows fallbacks", () => {
    const t = drawText(valid("finding-verifier.yaml"));
    expect(t).toMatch(/\nparse +agent, json output\n  retry max 1\n  fallback → parse_fault\n/);
    expect(t).toMatch(
      /\nverify_each +map over nodes\.parse\.output\.findings as finding, verdict output\.verdict\n  needs parse\n  branch \(once per finding\):\n    verify_one +agent, json output\n/,
    );
    expect(t).toMatch(/\ndone +end \(success\)\n  needs verify_each\n$/);
  });
});

const DOT_STRING = /"(?:[^"\\\n]|\\.)*"/g;

function checkDot(dot: string, graph: GraphFile): void {
  expect(dot.startsWith("digraph ")).toBe(true);
  const bare = dot.replace(DOT_STRING, "S");
  expect(bare).not.toContain('"'); // every quote is inside a well-formed string
  expect([...bare.matchAll(/\{/g)].length).toBe([...bare.matchAll(/\}/g)].length);
  const declared = new Set([...dot.matchAll(/^\s+("(?:[^"\\]|\\.)*") \[shape=/gm)].map((m) => m[1]));
  expect(declared.size).toBe(graphOrder(graph).length);
  const edges = [...dot.matchAll(/^\s+("(?:[^"\\]|\\.)*") -> ("(?:[^"\\]|\\.)*")/gm)];
  expect(edges.length).toBe(drawingEdges(graph).length);
  for (const [, from, to] of edges) {
    expect(declared.has(from)).toBe(true);
    expect(declared.has(to)).toBe(true);
  }
  const maps = graphOrder(graph).filter((n) => n.node.kind === "map").length;
  expect([...dot.matchAll(/subgraph "cluster_/g)].length).toBe(maps);
}

const MERMAID_LINE = [
  /^flowchart TD$/,
  /^ {2,4}n\d+(\[|\[\/|\[\[|\{|\{\{|\(\[)"[^"]*"(\]|\/\]|\]\]|\}|\}\}|\]\))$/,
  /^ {2}subgraph n\d+_branch\["[^"]*"\]$/,
  /^ {2}end$/,
  /^ {2}n\d+ (-->|==>|-\.->)(\|"[^"|]*"\|)? n\d+$/,
];

function checkMermaid(text: string, graph: GraphFile): void {
  const lines = text.trimEnd().split("\n");
  for (const line of lines)
    expect(
      MERMAID_LINE.some((re) => re.test(line)),
      line,
    ).toBe(true);
  const declared = new Set(lines.flatMap((l) => l.match(/^\s+(n\d+)[[{(]/)?.[1] ?? []));
  expect(declared.size).toBe(graphOrder(graph).length);
  const edges = lines.flatMap((l) => {
    const m = l.match(/^ {2}(n\d+) (?:-->|==>|-\.->)(?:\|"[^"|]*"\|)? (n\d+)$/);
    return m ? [[m[1]!, m[2]!] as const] : [];
  });
  expect(edges.length).toBe(drawingEdges(graph).length);
  for (const [from, to] of edges) expect(declared.has(from!) && declared.has(to!)).toBe(true);
  expect(lines.filter((l) => /^\s+subgraph /.test(l)).length).toBe(lines.filter((l) => l === "  end").length);
}

describe("dot", () => {
  test.each(ALL)("%s: one node per graph node, one edge per edge, a cluster per map, strings well formed", (name) => {
    const g = valid(name);
    checkDot(drawDot(g), g);
  });

  test("quotes, backslashes, pipes and angle brackets stay inside their strings", () => {
    const dot = drawDot(AWKWARD);
    checkDot(dot, AWKWARD);
    expect(dot).toContain('digraph "we\\"ird \\\\ name | <x>" {');
  });

  const hasDot = Bun.spawnSync(["sh", "-c", "command -v dot"]).exitCode === 0;
  test.skipIf(!hasDot).each(ALL)("%s: Graphviz itself accepts it", (name) => {
    const r = Bun.spawnSync(["dot", "-Tsvg"], { stdin: new TextEncoder().encode(drawDot(valid(name))), stdout: "pipe", stderr: "pipe" });
    expect(r.stderr.toString()).toBe("");
    expect(r.exitCode).toBe(0);
  });
});

describe("mermaid", () => {
  test.each(ALL)("%s: every line is a node, a subgraph, an end or an edge between declared nodes", (name) => {
    const g = valid(name);
    checkMermaid(drawMermaid(g), g);
  });

  test("awkward text is written with Mermaid entity codes, never raw quotes or pipes", () => {
    const m = drawMermaid(AWKWARD);
    checkMermaid(m, AWKWARD);
    expect(m).toContain('|"nodes.a-1.output = say #quot;hi#quot; #124; #lt;b#gt; \\ #amp;"|');
  });
});
