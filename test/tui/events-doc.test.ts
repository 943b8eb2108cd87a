// docs/events.md cannot drift from src/engine/events.ts: every event type has a
// section with an example line that validates, every field of every schema
// (nested ones included) is named in its section, every enum value and exit code appears.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  CAP_NAMES,
  CAUSES,
  EVENT_TYPES,
  eventSchema,
  eventsJsonSchema,
  NODE_STATUSES,
  QUALIFIERS,
  RUN_STATUSES,
  STOP_REASONS,
} from "../../src/engine/events.ts";
import { EXIT } from "../../src/engine/errors.ts";

const DOC = readFileSync(join(import.meta.dirname, "..", "..", "docs", "events.md"), "utf8");
const ENVELOPE = ["v", "type", "run", "t", "seq"];
/** Optional envelope fields: documented once, in the envelope section, with their nested fields. */
const ENVELOPE_OPTIONAL = ["remote"];

/** The text under "## `type`" up to the next "## ". */
function section(title: string): string {
  const start = DOC.indexOf(`## ${title}\n`);
  if (start < 0) return "";
  const end = DOC.indexOf("\n## ", start + 4);
  return DOC.slice(start, end < 0 ? undefined : end);
}

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
};

/** Every property name in a JSON Schema, at any depth. */
function fieldNames(s: JsonSchema, out = new Set<string>()): Set<string> {
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    out.add(k);
    fieldNames(v, out);
  }
  if (s.items) fieldNames(s.items, out);
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) fieldNames(alt, out);
  return out;
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|[^\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\w-]|$)`).test(text);
}

const variants = (eventsJsonSchema() as { oneOf: JsonSchema[] }).oneOf;

describe("docs/events.md", () => {
  test("the JSON Schema walk finds every event type and nested fields (the check can fail)", () => {
    expect(variants).toHaveLength(EVENT_TYPES.length);
    const all = new Set(variants.flatMap((v) => [...fieldNames(v)]));
    for (const nested of ["cache_read", "budget_usd", "index", "part", "outcome", "cancelled"]) expect(all.has(nested)).toBe(true);
    expect(mentions("`cache_read`", "cache_read")).toBe(true);
    expect(mentions("the cache_reads", "cache_read")).toBe(false);
  });

  test("the envelope section names every envelope field", () => {
    const env = section("The envelope (every event)");
    for (const f of ENVELOPE) expect(mentions(env, `\`${f}\``), f).toBe(true);
    const remote = variants[0]!.properties!.remote!;
    for (const f of [...ENVELOPE_OPTIONAL, ...fieldNames(remote.anyOf?.[0] ?? remote)]) expect(mentions(env, `\`${f}\``), f).toBe(true);
  });

  test.each(EVENT_TYPES)("%s: a section that names every field of the schema", (type) => {
    const text = section(`\`${type}\``);
    expect(text, `no "## \`${type}\`" section`).not.toBe("");
    const found = variants.find((v) => v.properties?.type?.const === type)!;
    const schema = {
      ...found,
      properties: Object.fromEntries(Object.entries(found.properties ?? {}).filter(([k]) => !ENVELOPE_OPTIONAL.includes(k))),
    };
    const missing = [...fieldNames(schema)].filter((f) => !ENVELOPE.includes(f) && !mentions(text, f));
    expect(missing).toEqual([]);
  });

  test.each(EVENT_TYPES)("%s: its example lines validate against the schema and have the right type", (type) => {
    const text = section(`\`${type}\``);
    const examples = [...text.matchAll(/```json\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.trim().split("\n"));
    expect(examples.length).toBeGreaterThan(0);
    for (const line of examples) {
      const parsed = eventSchema.safeParse(JSON.parse(line));
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.data?.type).toBe(type);
    }
  });

  test("every status, qualifier, stop reason, cause and cap kind is named", () => {
    const values = [...NODE_STATUSES, ...QUALIFIERS, ...STOP_REASONS, ...CAUSES, ...RUN_STATUSES, ...CAP_NAMES];
    expect(values.filter((v) => !mentions(DOC, `\`${v}\``))).toEqual([]);
  });

  test("the exit code table matches the codes the CLI uses", () => {
    const table = section("Exit codes");
    for (const code of Object.values(EXIT)) expect(table, `exit ${code}`).toMatch(new RegExp(`^\\| ${code} \\|`, "m"));
    expect([...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]))).toEqual(Object.values(EXIT));
  });

  // Each jq example, run on a recorded stream, prints something (jq installed: the Debian package).
  const jqLines = [...section("Reading the stream with jq").matchAll(/^vouch run graph\.yaml --json \| (jq .+)$/gm)].map((m) => m[1]!);
  test("it shows how to read the stream with jq", () => {
    expect(jqLines.length).toBeGreaterThanOrEqual(4);
  });
  test.skipIf(!Bun.which("jq")).each(jqLines)("the jq example works on a recorded run: %s", (command) => {
    const fixtures = join(import.meta.dirname, "fixtures");
    const input = ["map-mixed", "failed-check", "overruns"].map((f) => readFileSync(join(fixtures, `${f}.ndjson`), "utf8")).join("");
    const args = [...command.slice(3).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    const r = Bun.spawnSync(["jq", ...args], { stdin: new TextEncoder().encode(input) });
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.toString().trim().length).toBeGreaterThan(0);
  });
});
