// Property (issue 12, "Done when"): graphs with hostile names, values, depths
// and sizes, run through the real binary with script nodes and the `command`
// harness (no model). Whatever fast-check makes: `validate` and `run` exit in
// {0,1,2,3,4}, nothing prints "internal error" or a stack trace, every --json
// line is an event, and the ledger reads back (`vouch show last --json`).
// Sharper, per item: a reserved name (item 7) or a flag-like argv value
// (item 2) is refused with exit 2 at load; output too deep (item 6) is a
// verdict, never exit 3.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { RESERVED_NAMES } from "../../src/engine/graph/reserved-names.ts";
import { MAX_JSON_DEPTH } from "../../src/engine/json-depth.ts";
import { ensureBinary, parseNdjson, STACK_LINE, tempDir, vouch, type Ran, type TempDir } from "./helpers.ts";

const RUNS = Number(process.env.HOSTILE_RUNS ?? 30);
const EXIT_CODES = [0, 1, 2, 3, 4];

// ---- a tiny JSON writer whose objects are Maps (so `__proto__` is an ordinary key) ----
type J = null | boolean | number | string | J[] | Map<string, J>;
function write(v: J): string {
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`).join(",")}}`;
  if (Array.isArray(v)) return `[${v.map(write).join(",")}]`;
  return JSON.stringify(v);
}
const obj = (...pairs: [string, J | undefined][]): Map<string, J> => new Map(pairs.filter((p): p is [string, J] => p[1] !== undefined));
const deepArray = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObject = (n: number) => '{"k":'.repeat(n) + '"v"' + "}".repeat(n);

// ---- what fast-check draws ----
const plainId = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const hostileId = fc.oneof(
  fc.constantFrom(...RESERVED_NAMES),
  fc.constantFrom("-x", "a b", "ü", "x".repeat(300), "", "1st", "a\u001b[31m"),
);
const nodeId = fc.oneof({ weight: 4, arbitrary: plainId }, { weight: 1, arbitrary: hostileId });
const hostileText = fc.constantFrom(
  "plain",
  "-i",
  "--yolo",
  "\u001b[2J\u001b[31mred",
  "{{ inputs.x }}",
  "a\u0000b",
  "é".repeat(2000),
  "$(id)",
);
const model = fc.constantFrom(undefined, "--yolo", "-m", "--dangerously-skip-permissions", "model-1");
const depth = fc.constantFrom(1, 8, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 5000, 50_000);
const shape = fc.constantFrom("array", "object", "text");

interface NodeSpec {
  id: string;
  kind: "script" | "agent" | "end";
  json: boolean;
  depth: number;
  shape: string;
  model: string | undefined;
  needs: number[];
  endDepth: number;
}
const nodeSpec = fc.record({
  id: nodeId,
  kind: fc.constantFrom("script", "agent", "end"),
  json: fc.boolean(),
  depth,
  shape,
  model,
  needs: fc.array(fc.nat({ max: 8 }), { maxLength: 3 }),
  endDepth: fc.constantFrom(0, 3, MAX_JSON_DEPTH + 1, 1000),
}) as fc.Arbitrary<NodeSpec>;
const graphSpec = fc.record({
  name: hostileText,
  nodes: fc.array(nodeSpec, { minLength: 1, maxLength: 6 }),
  input: fc.option(fc.record({ name: nodeId, value: hostileText }), { nil: undefined }),
  check: fc.option(nodeId, { nil: undefined }),
  env: fc.constantFrom(undefined, "constructor", "__proto__", "toString", "PATH"),
});

let dir: TempDir;
let home: string;
let sample = 0;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("hostile");
  home = join(dir.path, "home");
});
afterAll(() => dir.cleanup());

function outputFile(n: NodeSpec): string {
  const file = join(dir.path, `out-${sample}-${n.shape}-${n.depth}.txt`);
  writeFileSync(file, n.shape === "array" ? deepArray(n.depth) : n.shape === "object" ? deepObject(n.depth) : `text ${n.depth}\n`);
  return file;
}

/** The graph text (JSON, which is YAML) and what the properties expect of it. */
type GraphSpec = {
  name: string;
  nodes: NodeSpec[];
  input: { name: string; value: string } | undefined;
  check: string | undefined;
  env: string | undefined;
};
function build(spec: GraphSpec) {
  const ids: string[] = [];
  const nodes = new Map<string, J>();
  let reserved = false;
  let flagLike = false;
  let agentOutput: string | undefined;
  for (const n of spec.nodes) {
    if (nodes.has(n.id)) continue;
    const needs = [...new Set(n.needs.filter((i: number) => i < ids.length).map((i: number) => ids[i]!))];
    const common: [string, J | undefined][] = [
      ["kind", n.kind],
      ["needs", needs.length > 0 ? needs : undefined],
    ];
    if (n.kind === "end")
      nodes.set(n.id, obj(...common, ["output", n.endDepth > 0 ? (JSON.parse(deepArray(Math.min(n.endDepth, 1000))) as J) : undefined]));
    else if (n.kind === "script") {
      const success = spec.check !== undefined ? obj(["checks", [spec.check]]) : undefined;
      // env names are free: `constructor` is an ordinary variable name (ADR 0019).
      const env = spec.env !== undefined ? [spec.env] : undefined;
      nodes.set(
        n.id,
        obj(
          ...common,
          ["argv", ["cat", outputFile(n)]],
          ["output", n.json ? obj(["format", "json"]) : undefined],
          ["success", success],
          ["env", env],
        ),
      );
    } else {
      agentOutput ??= outputFile(n);
      nodes.set(
        n.id,
        obj(
          ...common,
          ["harness", "command"],
          ["prompt", "answer"],
          ["model", n.model],
          ["output", n.json ? obj(["format", "json"]) : undefined],
        ),
      );
      if (n.model?.startsWith("-")) flagLike = true;
    }
    if (RESERVED_NAMES.includes(n.id)) reserved = true;
    ids.push(n.id);
  }
  const inputs = spec.input ? obj([spec.input.name, obj(["default", spec.input.value])]) : undefined;
  if (spec.input && RESERVED_NAMES.includes(spec.input.name)) reserved = true;
  const checks = spec.check !== undefined ? obj([spec.check, obj(["run", "true"])]) : undefined;
  if (spec.check !== undefined && RESERVED_NAMES.includes(spec.check)) reserved = true;
  const graph = obj(["version", 1], ["name", spec.name], ["inputs", inputs], ["checks", checks], ["nodes", nodes]);
  return { text: write(graph), reserved, flagLike, agentOutput };
}

function clean(r: Ran, what: string): void {
  expect(EXIT_CODES, `${what}: exit ${r.code}\n${r.stderr}`).toContain(r.code);
  expect(r.stdout + r.stderr, what).not.toMatch(/internal error/i);
  expect(r.stdout + r.stderr, what).not.toMatch(STACK_LINE);
}

describe("hostile graphs through dist/vouch", () => {
  test("an input named longer than a file name may be (the property's counterexample, 400 characters): the script reads its file and passes", async () => {
    const name = "x".repeat(400);
    const file = join(dir.path, "long-input.yaml");
    const run = `test "$(cat "$VOUCH_INPUT_${name.toUpperCase()}_FILE")" = plain`;
    writeFileSync(
      file,
      write(
        obj(
          ["version", 1],
          ["name", "plain"],
          ["inputs", obj([name, obj(["default", "plain"])])],
          ["nodes", obj(["a", obj(["kind", "script"], ["run", run])])],
        ),
      ),
    );
    const ran = await vouch(["run", file, "--json"], { home });
    clean(ran, "run");
    expect(ran.code, ran.stdout).toBe(0);
  }, 60_000);

  test(`property: ${RUNS} generated graphs validate and run to a documented exit, with a readable ledger`, async () => {
    await fc.assert(
      fc.asyncProperty(graphSpec, async (spec) => {
        sample += 1;
        const g = build(spec as GraphSpec);
        const file = join(dir.path, `g-${sample}.yaml`);
        writeFileSync(file, g.text);
        const env = { VOUCH_COMMAND: JSON.stringify(["cat", g.agentOutput ?? "/dev/null"]) };
        const checked = await vouch(["validate", file], { home, env });
        clean(checked, "validate");
        if (g.reserved || g.flagLike) expect(checked.code, checked.stdout).toBe(2);
        const ran = await vouch(["run", file, "--json"], { home, env });
        clean(ran, "run");
        if (g.reserved || g.flagLike) expect(ran.code).toBe(2);
        if (ran.code === 2) return;
        // Deep outputs are verdicts: nothing else in these graphs is an error of vouch's own.
        expect(ran.code, ran.stderr).not.toBe(3);
        const events = parseNdjson(ran.stdout);
        const shown = await vouch(["show", "last", "--json"], { home });
        clean(shown, "show");
        expect(shown.code).toBe(0);
        expect((JSON.parse(shown.stdout) as { run: { id: string } }).run.id).toBe(events[0]!.run);
      }),
      { numRuns: RUNS },
    );
    const listed = await vouch(["runs", "--json"], { home });
    expect(listed.code).toBe(0);
    expect(() => JSON.parse(listed.stdout)).not.toThrow();
  }, 600_000);
});
