// Problems placed by the fast path's own pass (ADR 0091) land exactly where the yaml
// library's document places them: every path in the shipped graphs and the bad-graph
// corpus (and paths past what is written), at value, key and parentKey, and generated
// graphs with unknown needs and fields. Plus a count: placing N problems reads the
// text once, however many problems there are (no timing).
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fastYamlValue } from "../../src/engine/graph/yaml-fast.ts";
import { libraryFront, yamlFront } from "../../src/engine/graph/yaml-front.ts";
import { fastLocated } from "../../src/engine/graph/yaml-fast-locate.ts";
import { fastPlaces } from "../../src/engine/graph/yaml-fast-places.ts";
import type { Path, PathProblem } from "../../src/engine/graph/problem.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const RUNS = Number(process.env.PROP_RUNS ?? 100);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
const FILES = [
  ...yamlFiles(join(ROOT, "graphs")),
  ...yamlFiles(join(ROOT, "examples")),
  ...yamlFiles(join(ROOT, "test", "graph", "broken")),
  ...yamlFiles(join(ROOT, "test", "graph", "valid")),
];

/** Every path in a value, and for each one a path one step past it. */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix, [...prefix, "nope"], [...prefix, 0]);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

function problemsFor(value: unknown): PathProblem[] {
  return pathsOf(value).flatMap((path, i) => (["value", "key", "parentKey"] as const).map((at) => ({ path, at, message: `m${i}` })));
}

/** Same places as the library; returns whether the fast pass answered. */
function agree(text: string, list?: PathProblem[]): boolean {
  const fast = fastYamlValue(text);
  if (fast === null) return false;
  const problems = list ?? problemsFor(fast.value);
  const mine = fastLocated("p.yaml", fastPlaces(text), problems);
  const library = libraryFront("p.yaml", text, "").located(problems);
  if (mine !== null) expect(mine).toEqual(library);
  expect(yamlFront("p.yaml", text, "").located(problems)).toEqual(library);
  return mine !== null;
}

describe("fast places agree with the library's", () => {
  test("every path of the shipped graphs and the corpus", () => {
    let answered = 0;
    for (const f of FILES) if (agree(readFileSync(f, "utf8"))) answered++;
    // Most files are answered by the fast pass, not sent to the library.
    expect(answered).toBeGreaterThan(FILES.length / 2);
  });

  const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
  const nodeLine = fc.record({
    id: name,
    style: fc.constantFrom("flow", "block", "blockList", "quoted"),
    needs: fc.array(name, { maxLength: 3 }),
    extra: fc.option(name),
    // Shapes around the entries: a comment, a block scalar, a list of mappings, an empty value.
    around: fc.subarray(["comment", "block", "items", "empty"] as const),
  });
  const graphText = fc.uniqueArray(nodeLine, { selector: (n) => n.id, minLength: 1, maxLength: 8 }).map((nodes) => {
    const lines = ["version: 1", "name: g", "nodes:"];
    for (const n of nodes) {
      const extra = n.extra === null ? [] : [`${n.extra}_x: 1`];
      if (n.style === "flow")
        lines.push(`  ${n.id}: { kind: end, status: success, needs: [${n.needs.join(", ")}]${extra.map((e) => `, ${e}`).join("")} }`);
      else {
        lines.push(n.style === "quoted" ? `  "${n.id}":` : `  ${n.id}:`, "    kind: end", "    status: success");
        if (n.style === "blockList" && n.needs.length > 0) lines.push("    needs:", ...n.needs.map((x) => `      - ${x}`));
        else lines.push(`    needs: [${n.needs.map((x) => `"${x}"`).join(", ")}]`);
        lines.push(...extra.map((e) => `    ${e}`));
        if (n.around.includes("comment")) lines.push("    # a comment", "", "  # less indented");
        if (n.around.includes("block"))
          lines.push("    prompt: |", "      line one", "", "        deeper", "    summary: >-", "      folded");
        if (n.around.includes("items"))
          lines.push("    checks:", "    - run: a", "      bad: 1", "    -   ", "      - nested", "    - [x, { y: 1 }]");
        if (n.around.includes("empty")) lines.push("    model:", "    timeout: # none");
      }
    }
    return `${lines.join("\n")}\n`;
  });

  test("generated graphs: every path, and the loader's problems", () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(graphText, (text) => {
        if (agree(text)) answered++;
        runs++;
        const fast = loadGraph("g.yaml", text);
        const library = loadGraph("g.yaml", `${text}x: &a 1\n`); // an anchor: outside the subset
        const strip = (ps: typeof fast.problems) => ps.filter((p) => !p.message.includes('"x"'));
        expect(strip(fast.problems)).toEqual(strip(library.problems));
      }),
      { numRuns: RUNS },
    );
    // The generated shapes are in the subset: the fast pass answers, the test is not vacuous.
    expect(answered).toBeGreaterThan(runs * 0.9);
  });
});

describe("the work is bounded", () => {
  test("N unknown needs are placed without the library, in one pass", () => {
    const n = 2000;
    const lines = ["version: 1", "name: big", "nodes:"];
    for (let i = 0; i < n; i++) lines.push(`  n${i}: { kind: end, status: success, needs: [x${i}] }`);
    const text = `${lines.join("\n")}\n`;
    let splits = 0;
    const split = String.prototype.split;
    String.prototype.split = function (this: string, ...args: Parameters<typeof split>) {
      if (this === text) splits++;
      return split.apply(this, args);
    } as typeof split;
    try {
      const list = Array.from({ length: n }, (_, i): PathProblem => ({ path: ["nodes", `n${i}`, "needs", 0], message: `m${i}` }));
      const placed = fastLocated("g.yaml", fastPlaces(text), list);
      expect(placed?.length).toBe(n);
      const last = lines.at(-1)!;
      expect(placed?.[n - 1]).toMatchObject({ line: n + 3, col: last.indexOf("[x") + 2 });
    } finally {
      String.prototype.split = split;
    }
    expect(splits).toBe(1);
  });

  test("located() called once per name reads the text once, not once per call", () => {
    const text = "version: 1\nname: g\nchecks:\n" + Array.from({ length: 50 }, (_, i) => `  c${i}: { run: x }\n`).join("");
    const front = yamlFront("g.yaml", text, "");
    let splits = 0;
    const split = String.prototype.split;
    String.prototype.split = function (this: string, ...args: Parameters<typeof split>) {
      if (this === text) splits++;
      return split.apply(this, args);
    } as typeof split;
    try {
      for (let i = 0; i < 50; i++) front.located([{ path: ["checks", `c${i}`], at: "key", message: "" }]);
    } finally {
      String.prototype.split = split;
    }
    expect(splits).toBe(1);
  });
});
