// The HTML report's graph is `vouch graph`'s: one DOT writer fed the same edges, so
// a router's routes (with their conditions), a fallback (dashed) and a feedback loop
// (dotted) are drawn, not only needs. Before, the report drew the needs run.started
// recorded and nothing else: of this graph's six edges, two.
import { copyFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";

const GRAPH = join(import.meta.dirname, "graphs", "routes.yaml");

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("report-edges");
}, 180_000);
afterAll(() => dir?.cleanup());

const decode = (s: string) =>
  s
    .replace(/&#45;/g, "-")
    .replace(/&gt;/g, ">")
    .replace(/&lt;/g, "<")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"');

/** Graphviz's SVG edges: "from->to" with the edge's markup (its label and dash pattern). */
function svgEdges(page: string): Map<string, string> {
  const svg = page.slice(page.indexOf("<svg"), page.indexOf("</svg>"));
  const out = new Map<string, string>();
  for (const m of svg.matchAll(/<g id="edge\d+" class="edge">\s*<title>([^<]*)<\/title>([\s\S]*?)<\/g>/g)) out.set(decode(m[1]!), m[2]!);
  return out;
}

/** `vouch graph -f dot`'s edges: "from->to". */
function dotEdges(dot: string): string[] {
  return [...dot.matchAll(/^\s+"([^"]+)" -> "([^"]+)"/gm)].map((m) => `${m[1]}->${m[2]}`);
}

async function runAndReport(graph: string, home: string, change?: () => void): Promise<string> {
  const ran = await vouch(["run", graph, "--plain"], { home, cwd: dir.path });
  expect(ran.code, ran.stderr).toBe(0);
  change?.();
  const r = await vouch(["report", "last", "--format", "html"], { home, cwd: dir.path });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe("the report's graph", () => {
  test("draws every edge vouch graph draws: routes with conditions, the fallback dashed, the feedback loop dotted", async () => {
    const graph = join(dir.path, "routes.yaml");
    copyFileSync(GRAPH, graph);
    const page = await runAndReport(graph, join(dir.path, "home1"));
    const edges = svgEdges(page);
    const drawn = dotEdges((await vouch(["graph", graph, "-f", "dot"], { home: join(dir.path, "home1") })).stdout);
    expect(drawn).toHaveLength(6);
    expect([...edges.keys()].sort()).toEqual(drawn.sort());
    expect(edges.get("build->rescue")).toMatch(/stroke-dasharray="5,2"[\s\S]*>fallback</);
    expect(edges.get("review->rescue")).toMatch(/stroke-dasharray="1,5"[\s\S]*>feedback, max 1/);
    expect(edges.get("triage->ship")).toContain("nodes.review.output.verdict = clean");
    expect(edges.get("triage->hold")).toContain(">otherwise<");
    expect(page).not.toContain("Drawn from the nodes the run recorded");
  });

  test("a graph file changed since the run: the recorded nodes and needs are drawn, and the page says so", async () => {
    const graph = join(dir.path, "changed.yaml");
    copyFileSync(GRAPH, graph);
    const page = await runAndReport(graph, join(dir.path, "home2"), () => appendFileSync(graph, "# edited after the run\n"));
    expect([...svgEdges(page).keys()].sort()).toEqual(["rescue->review", "review->triage"]);
    expect(page).toContain("Drawn from the nodes the run recorded");
    expect(page).toContain("routes, fallbacks and feedback loops are not shown");
  });
});
