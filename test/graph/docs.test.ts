// docs/graph-language.md is held to the code: its examples validate (the node
// fragments assembled into one graph), its broken example prints exactly the
// output shown, every field of the schema is documented, and the claims it
// makes about templates and durations hold.
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { formatProblem, TemplateError } from "../../src/engine/errors.ts";
import * as schema from "../../src/engine/graph/schema.ts";
import { parseDuration } from "../../src/engine/graph/duration.ts";
import { renderText, renderValue } from "../../src/engine/template/render.ts";
import { lines } from "./helpers.ts";

const DOC = readFileSync(join(import.meta.dirname, "..", "..", "docs", "graph-language.md"), "utf8");
const blocks = [...DOC.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
const yamlBlocks = blocks.filter((b) => b.lang === "yaml").map((b) => b.body);
const isComplete = (b: string) => /^(# yaml-language-server.*\n)?version: 1\n/.test(b);
const isBroken = (b: string) => b.startsWith("# a broken example\n");

describe("docs/graph-language.md examples", () => {
  test("every complete example validates", () => {
    const complete = yamlBlocks.filter(isComplete);
    expect(complete.length).toBeGreaterThanOrEqual(2);
    for (const b of complete) expect(lines(b), b).toEqual([]);
  });

  test("the fragments, assembled into one graph with a few stub nodes, validate", () => {
    const fragments = yamlBlocks.filter((b) => !isComplete(b) && !isBroken(b));
    const top = fragments.filter((b) => !b.startsWith("  "));
    const nodes = fragments.filter((b) => b.startsWith("  "));
    expect(nodes.length).toBeGreaterThanOrEqual(7);
    const stubs = [
      "  write: { kind: agent, prompt: w }",
      "  plan: { kind: agent, prompt: p }",
      "  parse: { kind: agent, prompt: p, output: { format: json, schema: { type: object, properties: { findings: { type: array } } } } }",
      "  review_failed: { kind: end }",
      "  rebuild: { kind: script, run: make }",
      "  ship: { kind: end }",
      "  reject: { kind: end }",
    ].join("\n");
    const graph = `version: 1\nname: docs\n${top.join("")}nodes:\n${nodes.join("")}${stubs}\n`;
    expect(lines(graph)).toEqual([]);
  });

  test("the broken example prints exactly the output shown after it", () => {
    const i = blocks.findIndex((b) => b.lang === "yaml" && isBroken(b.body));
    expect(blocks[i + 1]!.lang).toBe("text");
    const r = loadGraph("graph.yaml", blocks[i]!.body);
    expect(r.problems.map(formatProblem).join("")).toBe(blocks[i + 1]!.body);
  });
});

describe("every field is documented", () => {
  const shapes: Record<string, { shape: Record<string, unknown> }> = {
    graph: schema.graphSchema,
    input: schema.inputSchema,
    defaults: schema.defaultsSchema,
    caps: schema.capsSchema,
    check: schema.checkDefSchema,
    success: schema.successSchema,
    retry: schema.retrySchema,
    output: schema.outputSchema,
    feedback: schema.feedbackSchema,
    workspace: schema.workspaceSchema,
    agent: schema.agentNodeSchema,
    script: schema.scriptNodeSchema,
    map: schema.mapNodeSchema,
    router: schema.routerNodeSchema,
    approval: schema.approvalNodeSchema,
    end: schema.endNodeSchema,
    merge: schema.mergeNodeSchema,
  };
  test.each(Object.keys(shapes))("%s", (name) => {
    const missing = Object.keys(shapes[name]!.shape).filter((field) => !DOC.includes(`\`${field}\``));
    expect(missing).toEqual([]);
  });

  test("every node kind, harness, retry cause, expect form and condition operator is named", () => {
    const words = [
      ...schema.NODE_KINDS.map((k) => `kind: ${k}`),
      ...schema.HARNESS_NAMES,
      ...schema.RETRY_CAUSES,
      "exit_zero",
      "empty_output",
      "{ exit: N }",
      "output_matches",
    ];
    for (const op of ["in", "matches", "exists", "equals", "gt", "gte", "lt", "lte", "all", "any", "not"]) words.push(op);
    expect(words.filter((w) => !DOC.includes(w))).toEqual([]);
  });
});

describe("claims about templates and durations", () => {
  const scope = { inputs: { name: 'a "b"', files: ["x", "y"] } };
  test("filters: json, quote, lines", () => {
    expect(renderText("{{ inputs.files | json }}", scope)).toBe('["x","y"]');
    expect(renderText("{{ inputs.name | quote }}", scope)).toBe('"a \\"b\\""');
    expect(renderText("{{ inputs.files | lines }}", scope)).toBe("x\ny");
  });

  test("a string that is exactly one template keeps the value's type; a missing key is an error", () => {
    expect(renderValue("{{ inputs.files }}", scope)).toEqual(["x", "y"]);
    expect(() => renderText("{{ inputs.nope }}", scope)).toThrow(TemplateError);
  });

  test("durations: the forms shown parse; a bare number and zero are refused", () => {
    expect(["500ms", "90s", "10m", "1h30m", "1.5m"].map(parseDuration)).toEqual([500, 90_000, 600_000, 5_400_000, 90_000]);
    const cap = (wall: string) => lines(`version: 1\nname: d\nnodes:\n  a: { kind: agent, prompt: a, caps: { wall: ${wall} } }\n`);
    expect(cap("10")).toEqual([expect.stringMatching(/a duration needs a unit/)]);
    expect(cap("0s")).toEqual([expect.stringMatching(/a duration must be greater than zero/)]);
    expect(cap("1.5m")).toEqual([]);
  });

  test("expect: { exit: N } takes 0 to 255", () => {
    const check = (n: number) =>
      lines(`version: 1\nname: d\nchecks:\n  c: { run: x, expect: { exit: ${n} } }\nnodes:\n  a: { kind: agent, prompt: a }\n`);
    expect(check(0)).toEqual([]);
    expect(check(255)).toEqual([]);
    expect(check(256)).toHaveLength(1);
  });
});
