// Type messages say what the value is, never the phrase of what it should be:
// "must be a number, not a number (Infinity)" and "nodes must be a mapping, not
// a mapping" (a !!set or !!omap) were both seen. A table over value kinds × fields
// of every type through the loader, and a property over any JS value.
import fc from "fast-check";
import { describe as group, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { describe } from "../../src/engine/graph/zod-issues.ts";

// YAML text → what the message must call it.
const KINDS: [string, string][] = [
  [".inf", ".inf (infinite, or a number too large to hold)"],
  ["-.inf", "-.inf (infinite, or a number too large to hold)"],
  ["1e400", ".inf (infinite, or a number too large to hold)"],
  [".nan", ".nan (not a number)"],
  ["5", "a number (5)"],
  ["1.5", "a number (1.5)"],
  ["'text'", '"text"'],
  ["true", "a boolean (true)"],
  ["~", "empty"],
  ["[1]", "a list"],
  ["{a: 1}", "a mapping"],
  ["!!set {a}", "a set (!!set)"],
  ["!!omap [a: 1]", "an ordered map (!!omap)"],
  ["!!pairs [a: 1]", "a list"],
  ["!!binary aGk=", "binary data (!!binary)"],
  ["!!timestamp 2001-12-14", "a timestamp (!!timestamp)"],
];

// One field of each type: string, mapping (record), list, whole number, number, boolean, union.
const FIELDS: [string, (v: string) => string][] = [
  ["name (a string)", (v) => `version: 1\nname: ${v}\nnodes:\n  a: { kind: script, argv: ["true"] }\n`],
  ["nodes (a mapping)", (v) => `version: 1\nname: t\nnodes: ${v}\n`],
  ["argv (a list)", (v) => `version: 1\nname: t\nnodes:\n  a: { kind: script, argv: ${v} }\n`],
  ["retry.max (a whole number)", (v) => `version: 1\nname: t\nnodes:\n  a: { kind: script, argv: ["true"], retry: { max: ${v} } }\n`],
  ["caps.budget_usd (a number)", (v) => `version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: hi, caps: { budget_usd: ${v} } }\n`],
  [
    "success.exit_zero (a boolean)",
    (v) => `version: 1\nname: t\nnodes:\n  a: { kind: script, argv: ["true"], success: { exit_zero: ${v} } }\n`,
  ],
  [
    "expect.exit (in a union)",
    (v) =>
      `version: 1\nname: t\nnodes:\n  a: { kind: script, argv: ["true"], success: { checks: [{ name: c, run: "true", expect: { exit: ${v} } }] } }\n`,
  ],
];

/** "X must be E1, E2 or E3, not D" → [[E1, E2, E3], D]. */
function split(message: string): [string[], string] | null {
  const m = /must be (.+?), not (.+?)(?: \(did you mean [^)]*\))?$/.exec(message);
  return m ? [m[1]!.split(/, | or /), m[2]!] : null;
}

group("type messages over value kinds × fields", () => {
  test.each(FIELDS)("%s", (_field, graph) => {
    let typed = 0;
    for (const [yaml, said] of KINDS) {
      for (const p of loadGraph("g.yaml", graph(yaml)).problems) {
        const parts = split(p.message);
        if (!parts) continue;
        typed++;
        const [expected, got] = parts;
        expect(expected, p.message).not.toContain(got);
        // The value's kind, not a look-alike; a list's items speak for themselves.
        if (!/\[\d+\] must be/.test(p.message) && !/^node "/.test(p.message)) expect(got, `${yaml}: ${p.message}`).toBe(said);
        if (/inf|nan|1e400/.test(yaml) && expected.some((e) => /number/.test(e))) expect(expected).toContain("a finite number");
      }
    }
    expect(typed).toBeGreaterThan(5); // the table reaches the messages it is about
  });

  test("the two messages seen: .inf for a number, a !!set for nodes", () => {
    const inf = loadGraph("g.yaml", FIELDS[4]![1](".inf")).problems.map((p) => p.message);
    expect(inf).toContain("caps.budget_usd must be a finite number, not .inf (infinite, or a number too large to hold)");
    const set = loadGraph("g.yaml", FIELDS[1]![1]("!!set {a}")).problems.map((p) => p.message);
    expect(set).toContain("nodes must be a mapping, not a set (!!set)");
  });
});

test("describe() names the kind of any value: a mapping only for a plain object, a list only for an array, a number only when finite", () => {
  const special = fc.constantFrom<unknown>(
    Infinity,
    -Infinity,
    NaN,
    new Set([1]),
    new Map([["a", 1]]),
    new Uint8Array([1]),
    new Date(0),
    Object.create(null),
    10n,
  );
  fc.assert(
    fc.property(fc.oneof(fc.anything(), special), (v) => {
      const d = describe(v);
      const plain = typeof v === "object" && v !== null && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));
      expect(d === "a mapping").toBe(plain);
      expect(d === "a list").toBe(Array.isArray(v));
      if (d.startsWith("a number (")) expect(typeof v === "bigint" || (typeof v === "number" && Number.isFinite(v))).toBe(true);
    }),
    { numRuns: 500 },
  );
});
