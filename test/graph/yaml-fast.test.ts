// The YAML fast path (ADR 0074) accepts and refuses exactly what the yaml library
// does: whenever Bun's reader is taken, the library finds no problem in the same
// text and reads the same value; whenever it is not, the library's reading is the
// answer. Held over the shipped graphs, the bad-graph corpus, YAML written by the
// library from random values, random lines of hostile fragments, random edits of
// the shipped graphs, and the named hostile shapes (anchors, merge keys, tags,
// duplicate and __proto__ keys, deep nesting, huge scalars, documents, BOM, CRLF, tabs).
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { fastYamlValue } from "../../src/engine/graph/yaml-fast.ts";
import { libraryFront, yamlFront } from "../../src/engine/graph/yaml-front.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const RUNS = Number(process.env.PROP_RUNS ?? 300);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
const SHIPPED = [...yamlFiles(join(ROOT, "graphs")), ...yamlFiles(join(ROOT, "examples"))];
const CORPUS = [...yamlFiles(join(ROOT, "test", "graph", "broken")), ...yamlFiles(join(ROOT, "test", "graph", "valid"))];

let taken = 0;
/** The property: a fast reading is the library's reading, problems and value. Returns whether it was fast. */
function agree(text: string): boolean {
  const fast = fastYamlValue(text);
  const slow = libraryFront("p.yaml", text, "hint");
  const front = yamlFront("p.yaml", text, "hint");
  expect(front.problems).toEqual(slow.problems);
  if (fast === null) {
    expect(front.raw).toStrictEqual(slow.raw);
    return false;
  }
  taken++;
  expect(slow.problems).toEqual([]);
  expect(fast.value).toStrictEqual(slow.raw);
  expect(front.raw).toStrictEqual(slow.raw);
  return true;
}

describe("files on disk", () => {
  test.each(SHIPPED.map((f) => [f.slice(ROOT.length + 1), f]))("%s takes the fast path and agrees", (_, file) => {
    expect(agree(readFileSync(file, "utf8"))).toBe(true);
  });
  test("the bad-graph corpus and the valid corpus agree (most broken files fall back)", () => {
    let fast = 0;
    for (const f of CORPUS) if (agree(readFileSync(f, "utf8"))) fast++;
    expect(fast).toBeGreaterThan(0);
    expect(fast).toBeLessThan(CORPUS.length);
  });
  test("the loader's answer for every corpus file is the one the library path gives", () => {
    // Problems found after the YAML layer are placed through the library document built on demand.
    for (const f of [...CORPUS, ...SHIPPED]) {
      const text = readFileSync(f, "utf8");
      const r = loadGraph(f, text);
      if (r.graph === null) for (const p of r.problems) expect(p.line).toBeGreaterThanOrEqual(1);
    }
  });
});

describe("named hostile shapes fall back or agree", () => {
  const deepBlock = Array.from({ length: 80 }, (_, i) => `${"  ".repeat(i)}a:`).join("\n");
  const cases: Record<string, string> = {
    anchors: "a: &x { b: 1 }\nc: *x\n",
    "merge key": "a: &x { b: 1 }\nc:\n  <<: *x\n  d: 2\n",
    "merge key plain": "<<: { b: 1 }\n",
    tags: "a: !!str 1\nb: !custom x\n",
    "duplicate keys": "a: 1\nb: 2\na: 3\n",
    "duplicate flow keys": "a: { b: 1, b: 2 }\n",
    "duplicate quoted and plain": "a: 1\n'a': 2\n",
    "duplicate in an item": "- a: 1\n  a: 2\n",
    "plain __proto__ key": "__proto__: { polluted: true }\nb: 2\n",
    "quoted __proto__": '"__proto__": 1\n',
    "flow __proto__": "a: { __proto__: 1 }\n",
    constructor: "constructor: 1\n",
    "deep block": `${deepBlock} 1\n`,
    "deep flow": `a: ${"[".repeat(200)}${"]".repeat(200)}\n`,
    "huge scalar": `a: ${"x".repeat(300_000)}\n`,
    "huge quoted": `a: "${"y".repeat(100_000)}"\n`,
    "multi-document": "a: 1\n---\nb: 2\n",
    "leading ---": "---\na: 1\n",
    "end marker": "a: 1\n...\n",
    directive: "%YAML 1.2\n---\na: 1\n",
    BOM: "\uFEFFa: 1\n",
    CRLF: "a: 1\r\nb: [x, y]\r\n",
    tabs: "a:\n\tb: 1\n",
    "tab in a value": "a: x\ty\n",
    "yaml 1.1 booleans": "a: yes\nb: on\nc: [no, off, y, n]\n",
    "shouted booleans": "a: [VERIFIED, FALSE]\nb: True\n",
    octal: "a: 017\nb: 0o17\nc: 0x1F\n",
    floats: "a: 1e3\nb: .5\nc: .inf\nd: -.inf\ne: .nan\nf: 0.50\n",
    timestamp: "a: 2001-12-14\n",
    "unquoted template": "a: {{ inputs.x }}\n",
    "quoted template": 'a: "{{ inputs.x }}"\n',
    "template in a plain scalar": "a: x{{ y }}\n",
    "bad escape": 'a: "\\q"\n',
    "unicode escape": 'a: "\\u00e9"\n',
    "unclosed quote": 'a: "x\nb: 1\n',
    "multi-line plain": "a: one\n  two\n",
    "multi-line quoted": 'a: "one\n  two"\n',
    "keep chomping": "a: |+\n  x\n\n",
    "indent indicator": "a: |2\n   x\n",
    "folded more-indented": "a: >\n  x\n    y\n  z\nb: 1\n",
    "block with blank lines": "a: |\n  x\n\n  y\n\n\nb: 1\n",
    "block with spaced blank lines": "a: |\n  x\n      \n  y\nb: 1\n",
    "leading spaced blank in block": "a: |\n     \n  x\n",
    "bad indentation": "a:\n    b: 1\n  c: 2\n",
    "sequence at the key's column": "a:\n- 1\n- 2\nb: 3\n",
    "complex key": "? [a]\n: 1\n",
    "empty file": "",
    "comments only": "# x\n# y\n",
    "root scalar": "hello\n",
    "root sequence": "- a\n- b\n",
    "control character": "a: x\u0007y\n",
    emoji: "a: 🙂\n",
    NEL: "a: x\u0085y\n",
    "line separator": "a: x\u2028y\n",
    "trailing comma": "a: [x, y, ]\n",
    "colon in flow": "a: {b:c}\n",
    "url in flow": "a: [http://x]\n",
    "comment after flow": "a: [x] # c\n",
    "hash in plain": "a: x#y\nb: x #y\n",
    "key with spaces": "a b: 1\n",
    "numeric key": "1: a\n1.0: b\n",
    "null key": "null: a\n~: b\n",
    "empty value in flow": "a: { b: }\n",
    "negative numbers": "a: -5\nb: -0.5\nc: -x\n",
    "big int": "a: 12345678901234567890\n",
    durations: "a: 10m\nb: 1h30m\nc: 5s\n",
    "space before colon": "a : 1\n",
    "two spaces after dash": "-  a\n",
    "nested dashes": "- - a\n  - b\n- c\n",
    "lone dash": "-\n  a\n",
    "item then deeper": "- a\n  b: 1\n",
    "empty block scalar": "a: |\nb: 1\n",
    "block scalar at the end without a newline": "a: |\n  x",
    "block scalar in items": "- |\n  x\n- a: >-\n    y\n    z\n  b: 1\n",
    "less-indented comment in a block": "a: |\n  x\n# c\n  y\n",
    "unicode spaces": "a: x\u00a0\nb: \u3000y\u2000\nc: z\u200b\n",
    "negative zero": "a: -0\nb: -0.0\nc: 0.0\n",
    "quoted then hash": 'a: "x"#c\n',
    "key then hash": "a:#x\n",
    "plain ending in a colon": "a: b:\n",
    "flow then text": "a: [x] y\n",
    "empty flows nested": "a: [[], {}, [[]]]\n",
    "quoted key with colon": '"a: b": 1\n',
    "trailing spaces": "a: x   \nb:   \n  c: 1  \n",
    "comment after a block header": "a: | # c\n  x\n",
  };
  for (const [name, text] of Object.entries(cases)) test(name, () => void agree(text));
});

// ---- generated ----
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const word = fc.oneof(
  fc.constantFrom(
    "a",
    "b",
    "on",
    "yes",
    "no",
    "true",
    "FALSE",
    "null",
    "~",
    "__proto__",
    "<<",
    "x y",
    "1",
    "0.5",
    "10m",
    "{{ x }}",
    "-x",
    "#c",
    "a: b",
    "it's",
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 6 }),
);
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    word,
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(word, tie("v"), { maxKeys: 4 }),
  ),
})).v;
const stringifyOptions = fc.record({
  indent: fc.constantFrom(2, 4),
  collectionStyle: fc.constantFrom("any", "block", "flow") as fc.Arbitrary<"any" | "block" | "flow">,
  defaultStringType: fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE", "BLOCK_LITERAL", "BLOCK_FOLDED") as fc.Arbitrary<
    "PLAIN" | "QUOTE_DOUBLE" | "QUOTE_SINGLE" | "BLOCK_LITERAL" | "BLOCK_FOLDED"
  >,
  defaultKeyType: fc.constantFrom(null, "PLAIN", "QUOTE_DOUBLE") as fc.Arbitrary<null | "PLAIN" | "QUOTE_DOUBLE">,
});

const KEYS = ["a", "b", "c", "a", "on", "__proto__", "<<", '"a"', "'b'", "true", "1", "x y", "- a"];
const VALUES = [
  "",
  " 1",
  " x",
  " yes",
  " on",
  " 017",
  " 0o17",
  " 1e3",
  " .inf",
  " ~",
  " TRUE",
  " FALSE",
  " &a x",
  " *a",
  " !!str x",
  " {{ x }}",
  ' "{{ x }}"',
  " [a, b]",
  " { a: 1, a: 2 }",
  " { a: 1 }",
  " |",
  " >",
  " |+",
  " |-",
  ' "a\\qb"',
  " 'it''s'",
  " x #c",
  " a: b",
  " 10m",
  " -5",
  " 0.50",
  ' "\\u00e9"',
  " [a, [b, [c]]]",
  " { b: [c, d] }",
  " # c",
  " 'open",
  ' "open',
  " [open",
  " x y z",
  " {}",
  " []",
  " - x",
  " x{{ y }}",
  ":x",
  " [a, ]",
  " {a:b}",
];
const SPECIAL = ["---", "...", "%YAML 1.2", "\tb: 1", "? x", "  ", "    text: with colon", "  - item", "#", "- - a", "-", "  x"];
const line = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(0, 0, 2, 2, 4, 1, 6),
      fc.constantFrom("", "", "- ", "- - "),
      fc.constantFrom(...KEYS),
      fc.constantFrom(...VALUES),
    )
    .map(([indent, dash, key, value]) => `${" ".repeat(indent)}${dash}${key}:${value}`),
  fc.tuple(fc.constantFrom(0, 2, 4), fc.constantFrom(...VALUES)).map(([indent, value]) => `${" ".repeat(indent)}-${value}`),
  fc.constantFrom(...SPECIAL),
);
const lineFile = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom("\n", "\n", "\r\n"), fc.boolean(), fc.boolean())
  .map(([lines, eol, bom, end]) => `${bom ? "\uFEFF" : ""}${lines.join(eol)}${end ? eol : ""}`);

const SHIPPED_TEXT = SHIPPED.map((f) => readFileSync(f, "utf8"));
const HOSTILE_CHARS = [
  "\t",
  "\r",
  "\uFEFF",
  "&",
  "*",
  "!",
  "{",
  "}",
  "[",
  "]",
  ":",
  "#",
  "'",
  '"',
  "|",
  ">",
  "-",
  " ",
  "\n",
  "<<",
  "{{",
  "---\n",
  "\u0000",
];
const edited = fc
  .tuple(
    fc.constantFrom(...SHIPPED_TEXT),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom("insert", "delete", "duplicate", "indent"), fc.constantFrom(...HOSTILE_CHARS)), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([text, edits]) => {
    let t = text;
    for (const [at, kind, ch] of edits) {
      const lines = t.split("\n");
      const i = at % lines.length;
      const pos = at % (t.length + 1);
      if (kind === "insert") t = t.slice(0, pos) + ch + t.slice(pos);
      else if (kind === "delete") t = [...lines.slice(0, i), ...lines.slice(i + 1)].join("\n");
      else if (kind === "duplicate") t = [...lines.slice(0, i + 1), ...lines.slice(i)].join("\n");
      else t = [...lines.slice(0, i), ` ${lines[i]}`, ...lines.slice(i + 1)].join("\n");
    }
    return t;
  });

// Each run reads a file three times (fast, library, front): bounded by runs, not by a clock.
describe("generated files: the two readers agree", { timeout: 300_000 }, () => {
  test("YAML the library writes from random values (block, flow, every string style)", () => {
    const before = taken;
    fc.assert(
      fc.property(fc.dictionary(word, json, { minKeys: 1, maxKeys: 5 }), stringifyOptions, (value, options) => {
        agree(YAML.stringify(value, options));
      }),
      { numRuns: RUNS },
    );
    expect(taken - before).toBeGreaterThan(0); // not vacuous: some take the fast path
  });
  test("graph-like values the library writes: most take the fast path, all agree", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);
    const tame: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.integer({ min: -1000, max: 1000 }),
        fc.boolean(),
        fc.constantFrom(
          "10m",
          "sh -c true",
          "./scripts/build",
          "{{ inputs.x }}",
          "it's",
          'say "hi"',
          "a: b",
          "multi\nline\n",
          "x #y",
          "0.50",
        ),
        name,
        fc.array(tie("v"), { maxLength: 3 }),
        fc.dictionary(name, tie("v"), { maxKeys: 3 }),
      ),
    })).v;
    const before = taken;
    fc.assert(
      fc.property(fc.dictionary(name, tame, { minKeys: 1, maxKeys: 5 }), stringifyOptions, (value, options) => {
        agree(YAML.stringify(value, options));
      }),
      { numRuns: RUNS },
    );
    expect(taken - before).toBeGreaterThan(RUNS / 3);
  });
  test("random lines of hostile fragments", () => {
    fc.assert(
      fc.property(lineFile, (text) => void agree(text)),
      { numRuns: RUNS * 2 },
    );
  });
  test("random edits of the shipped graphs", () => {
    fc.assert(
      fc.property(edited, (text) => void agree(text)),
      { numRuns: RUNS },
    );
  });
  test("random text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => void agree(text)),
      { numRuns: RUNS },
    );
  });
});

// Security review of ADR 0074. Test first: both failed before the fixes.
// ADR 0089: the fast path's bound is the default graph limit (4 MiB), not 256 KiB. Test first:
// the 40,000-input file fell back to the library before (3 s of `vouch validate` against ~0.2 s).
describe("large files (ADR 0089)", () => {
  const inputs = (n: number) => {
    const lines = ["version: 1", "name: big", "inputs:"];
    for (let i = 0; i < n; i++) lines.push(`  k${i}: { default: v }`);
    return `${lines.join("\n")}\nnodes:\n  a: { kind: end, status: success }\n`;
  };
  test("a graph of 40,000 inputs (966 KiB) takes the fast path and reads as the library does", () => {
    const text = inputs(40_000);
    expect(text.length).toBeGreaterThan(256 * 1024);
    expect(agree(text)).toBe(true);
  });
  test("a file past 4 MiB is the library's, whatever it holds", () => {
    const text = inputs(180_000);
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(fastYamlValue(text)).toBeNull();
  });
  test("the bound is in bytes: 2.5 million `é` (2.5 Mi characters, 5 MB) are the library's", () => {
    // Review of ADR 0089: the bound compared UTF-16 units with a byte limit, so a file of
    // non-ASCII text past 4 MiB in bytes still took the fast path.
    const text = `version: 1\nname: t\ndescription: ${"é".repeat(2_500_000)}\nnodes: {}\n`;
    expect(text.length).toBeLessThan(4 * 1024 * 1024);
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 * 1024 * 1024);
    expect(fastYamlValue(text)).toBeNull();
    const under = `version: 1\nname: t\ndescription: ${"é".repeat(1_500_000)}\nnodes: {}\n`;
    expect(fastYamlValue(under)).not.toBeNull();
  });
  test("long runs of spaces in a file past the old bound are read in linear time", () => {
    const pad = " ".repeat(1_500_000);
    for (const text of [
      `version: 1\nname: t\ndescription: x${pad}y\nnodes: {}\n`,
      `version: 1\nname: t\nlist: [a${pad}b]\n`,
      `version: 1\nname: t\n${pad}x: 1\n`,
    ])
      agree(text);
  });
});

describe("hostile lengths (review)", () => {
  // `/ +$/` backtracks over every start in a run of spaces: a 250,000-space line took 47 s
  // (the library: 4 ms). The trims are loops now; these files (under the fast path's bound)
  // took minutes before and would outlast the test's timeout.
  test("a line with a long run of spaces not at its end is read in linear time", () => {
    const pad = " ".repeat(250_000);
    for (const text of [
      `version: 1\nname: t\ndescription: x${pad}y\nnodes: {}\n`,
      `version: 1\nname: t\nlist: [a${pad}b]\n`,
      `version: 1\nname: t\n${pad}x: 1\n`,
    ])
      agree(text);
  });

  test("a block key past 1,024 characters is the library's to refuse, never taken fast", () => {
    const long = "k".repeat(1100);
    for (const text of [
      `version: 1\n${long}: 1\n`,
      `version: 1\n"${long}": 1\n`,
      `version: 1\nnodes:\n  ${long}: 1\n`,
      `version: 1\nlist:\n  - ${long}: 1\n`,
    ]) {
      expect(fastYamlValue(text)).toBeNull();
      agree(text);
    }
  });
});
