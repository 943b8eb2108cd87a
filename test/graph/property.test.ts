// Property: whatever text it is given — random strings, random YAML values,
// random edits of the valid graphs — loadGraph never throws, never falls into
// its internal-error guard, and every problem has a real position.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { loadGraph } from "../../src/engine/graph/loader.ts";

const VALID_DIR = join(import.meta.dirname, "valid");
const VALID = readdirSync(VALID_DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort()
  .map((f) => readFileSync(join(VALID_DIR, f), "utf8"));
const RUNS = Number(process.env.PROP_RUNS ?? 250);

function checkLoad(text: string): void {
  const r = loadGraph("p.yaml", text);
  const lineCount = text.split(/\r\n|\r|\n/).length;
  if (r.graph) {
    expect(r.problems).toEqual([]);
    return;
  }
  expect(r.problems.length).toBeGreaterThan(0);
  for (const p of r.problems) {
    expect(p.line).toBeGreaterThanOrEqual(1);
    expect(p.col).toBeGreaterThanOrEqual(1);
    expect(p.line).toBeLessThanOrEqual(lineCount + 1);
    expect(typeof p.message).toBe("string");
    expect(p.message.length).toBeGreaterThan(0);
    expect(p.message).not.toMatch(/^internal error/);
  }
}

// ---- mutations of parsed values ----
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 20 }),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 12 }),
);
const NEAR_KEYS = [
  "kind",
  "prompt",
  "promt",
  "needs",
  "over",
  "branch",
  "run",
  "argv",
  "to",
  "max",
  "feedback",
  "fallback",
  "exhausted",
  "when",
  "routes",
  "default",
  "as",
  "verdict",
  "caps",
  "timeout",
  "checks",
  "inputs",
  "nodes",
  "origin",
  "output",
  "schema",
  "status",
  "__proto__",
  "constructor",
  "<<",
];
const TEMPLATES = [
  "{{ inputs.x }}",
  "{{ nodes.a.output }}",
  "{{ item }}",
  "{{ error }}",
  "{{",
  "}}",
  "{{ | }}",
  "{{ nodes }}",
  "{{ index.0 }}",
];
const value: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.constantFrom(
      ...TEMPLATES,
      "agent",
      "script",
      "map",
      "router",
      "approval",
      "end",
      "planned",
      "10m",
      "11m",
      "0s",
      "nodes.a.output.xs",
      "inputs.x",
    ),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...NEAR_KEYS), fc.string({ maxLength: 6 })), tie("v"), { maxKeys: 4 }),
  ),
})).v;

interface Mutation {
  pathPick: number;
  op: "delete" | "replace" | "insert" | "swapType" | "renameKey";
  key: string;
  value: Json;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  pathPick: fc.nat(),
  op: fc.constantFrom("delete", "replace", "insert", "swapType", "renameKey"),
  key: fc.constantFrom(...NEAR_KEYS),
  value,
});

/** Every container (object or array) in a value, with parents first. */
function containers(v: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (v !== null && typeof v === "object") {
    out.push(v as Record<string, unknown>);
    for (const child of Object.values(v)) containers(child, out);
  }
  return out;
}

function swapType(v: unknown): Json {
  if (typeof v === "string") return v.length;
  if (typeof v === "number") return [v];
  if (Array.isArray(v)) return { list: v as Json[] };
  if (v && typeof v === "object") return JSON.stringify(v);
  return "text";
}

function mutate(doc: unknown, m: Mutation): void {
  const all = containers(doc);
  if (all.length === 0) return;
  const target = all[m.pathPick % all.length]!;
  const keys = Object.keys(target);
  const key = keys.length > 0 ? keys[m.pathPick % keys.length]! : undefined;
  const t = target as Record<string, unknown>;
  switch (m.op) {
    case "delete":
      if (key !== undefined) Array.isArray(target) ? target.splice(Number(key), 1) : delete t[key];
      break;
    case "replace":
      if (key !== undefined) t[key] = m.value;
      break;
    case "insert":
      if (Array.isArray(target)) target.push(m.value);
      else Object.defineProperty(t, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      break;
    case "swapType":
      if (key !== undefined) t[key] = swapType(t[key]);
      break;
    case "renameKey":
      if (key !== undefined && !Array.isArray(target)) {
        const v = t[key];
        delete t[key];
        Object.defineProperty(t, m.key, { value: v, enumerable: true, configurable: true, writable: true });
      }
      break;
  }
}

// ---- mutations of text ----
const TOKENS = [
  ":",
  "- ",
  "{",
  "}",
  "[",
  "]",
  "&a ",
  "*a",
  "<<: *a",
  "\t",
  "'",
  '"',
  "{{",
  "}}",
  "---\n",
  "? ",
  "#",
  "\n  ",
  "\\",
  "|\n",
  "!tag ",
  "%YAML 1.2\n",
  "\uFEFF",
  "\r\n",
];
const textEdit = fc.record({
  at: fc.nat(),
  op: fc.constantFrom("truncate", "insert", "deleteSlice", "duplicateLine"),
  token: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 4 })),
  len: fc.integer({ min: 1, max: 40 }),
});

function editText(text: string, e: { at: number; op: string; token: string; len: number }): string {
  const at = text.length === 0 ? 0 : e.at % text.length;
  switch (e.op) {
    case "truncate":
      return text.slice(0, at);
    case "insert":
      return text.slice(0, at) + e.token + text.slice(at);
    case "deleteSlice":
      return text.slice(0, at) + text.slice(at + e.len);
    default: {
      const lines = text.split("\n");
      const i = at % Math.max(1, lines.length);
      lines.splice(i, 0, lines[i] ?? "");
      return lines.join("\n");
    }
  }
}

describe("loadGraph never throws and always gives real positions", () => {
  test("random strings", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200, unit: "binary" }), checkLoad), { numRuns: RUNS });
  });

  test("random YAML documents", () => {
    fc.assert(
      fc.property(value, (v) => checkLoad(YAML.stringify(v))),
      { numRuns: RUNS },
    );
  });

  test("random value edits of the valid graphs (delete, replace, insert, swap types, rename keys)", () => {
    fc.assert(
      fc.property(fc.nat({ max: VALID.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), (i, ms) => {
        const doc = YAML.parse(VALID[i]!, { merge: true });
        for (const m of ms) mutate(doc, m);
        checkLoad(YAML.stringify(doc, { aliasDuplicateObjects: false }));
      }),
      { numRuns: RUNS },
    );
  });

  test("random text edits of the valid graphs (truncate, insert YAML tokens, cut slices, duplicate lines)", () => {
    fc.assert(
      fc.property(fc.nat({ max: VALID.length - 1 }), fc.array(textEdit, { minLength: 1, maxLength: 3 }), (i, edits) => {
        checkLoad(edits.reduce(editText, VALID[i]!));
      }),
      { numRuns: RUNS },
    );
  });

  test("the mutations do reach the validator: most edited graphs are refused, some still load", () => {
    let refused = 0;
    let loaded = 0;
    fc.assert(
      fc.property(fc.nat({ max: VALID.length - 1 }), mutation, (i, m) => {
        const doc = YAML.parse(VALID[i]!, { merge: true });
        mutate(doc, m);
        if (loadGraph("p.yaml", YAML.stringify(doc, { aliasDuplicateObjects: false })).graph) loaded++;
        else refused++;
      }),
      { numRuns: 200, seed: 42 },
    );
    expect(refused).toBeGreaterThan(50);
    expect(loaded).toBeGreaterThan(0);
  });
});
