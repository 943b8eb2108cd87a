// The property both halves of test/graph/schema-fast*.test.ts hold (ADR 0083): whenever the
// fast graph check is sure, zod's schema accepts the same input without an issue and gives
// the same output, the same keys in the same order; a throw in one is a throw in the other.
// With the files it is held over and the corpus's keys, values and nodes to build from.
import { expect } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { fastChecksFile, fastGraph } from "../../src/engine/graph/schema-fast.ts";
import { UNSURE } from "../../src/engine/graph/schema-fast-kit.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import { checksFileSchema } from "../../src/engine/graph/checks-file-zod.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
export const RUNS = Number(process.env.PROP_RUNS ?? 300);

export function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
export const read = (f: string): unknown => YAML.parse(readFileSync(f, "utf8"));
export const isChecksFile = (f: string) => f.endsWith(".checks.yaml");
export const SHIPPED = [...yamlFiles(join(ROOT, "graphs")), ...yamlFiles(join(ROOT, "examples"))];
export const GRAPHS = SHIPPED.filter((f) => !isChecksFile(f));
export const CORPUS = [...yamlFiles(join(ROOT, "test", "graph", "broken")), ...yamlFiles(join(ROOT, "test", "graph", "valid"))];

export type Check = { fast: (raw: unknown) => unknown; schema: { safeParse: (raw: unknown, p: { jitless: true }) => any } };
export const GRAPH: Check = { fast: fastGraph, schema: graphSchema };
export const CHECKS: Check = { fast: fastChecksFile, schema: checksFileSchema };

/** The property. Returns whether the fast check was sure. */
export function agree(raw: unknown, on: Check = GRAPH): boolean {
  let fast: unknown;
  let fastThrew: unknown = null;
  try {
    fast = on.fast(raw);
  } catch (e) {
    fastThrew = e; // the loader turns a throw into a validator-bug problem: zod must throw too
  }
  let parsed: any;
  try {
    parsed = on.schema.safeParse(raw, { jitless: true });
  } catch (e) {
    expect(fastThrew, String(e)).not.toBeNull();
    return false;
  }
  expect(fastThrew).toBeNull();
  if (fast === UNSURE) return false;
  expect(parsed.error?.issues).toBeUndefined();
  expect(fast).toStrictEqual(parsed.data);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data)); // the same keys in the same order
  return true;
}

// Every key and value the shipped graphs and the valid corpus hold, by key, and their nodes
// by kind: graphs built from them are often valid, so the property is not vacuous; hostile
// values and fields of other kinds make the rest refused.
export const POOL = new Map<string, unknown[]>();
export const NODES = new Map<string, Record<string, unknown>[]>();
export const NODE_FIELDS = new Map<string, Set<string>>();
function collect(v: unknown, inNodes = false): void {
  if (Array.isArray(v)) return v.forEach((x) => collect(x));
  if (typeof v !== "object" || v === null) return;
  const o = v as Record<string, unknown>;
  for (const [key, value] of Object.entries(o)) {
    if (!POOL.has(key)) POOL.set(key, []);
    POOL.get(key)!.push(value);
    const node = value as Record<string, unknown>;
    if (inNodes && typeof node === "object" && node !== null && typeof node.kind === "string") {
      (NODES.get(node.kind) ?? NODES.set(node.kind, []).get(node.kind)!).push(node);
      const fields = NODE_FIELDS.get(node.kind) ?? NODE_FIELDS.set(node.kind, new Set()).get(node.kind)!;
      for (const f of Object.keys(node)) fields.add(f);
    }
    collect(value, key === "nodes" || key === "branch");
  }
}
for (const f of [...SHIPPED, ...CORPUS.filter((f) => f.includes("/valid/"))]) collect(read(f));

export const deep = (n: number): unknown => {
  let v: unknown = { a: 1 };
  for (let i = 0; i < n; i++) v = { not: v };
  return v;
};
export const KEYS = [...POOL.keys()];
