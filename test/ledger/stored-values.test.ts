// Long values once (schema version 6, ADR 0077): whatever an event holds, every reader gets back
// the text that was written — the events' bytes (`vouch watch --json`, resume's fold) and the
// projections (`vouch show`) — and a ledger of version 5 opens, reads as before and goes on.
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { eventJson, type VouchEvent } from "../../src/engine/events.ts";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { MIGRATIONS, migrate, SCHEMA_VERSION } from "../../src/ledger/migrations.ts";
import { PACKED } from "../../src/ledger/event-fragments.ts";
import { compact, expand, HEADERLESS, headerOf, INLINE_MAX, MAX_LEVELS, withHeader, withoutHeader } from "../../src/ledger/stored-text.ts";
import { seedTexts } from "../../src/ledger/json-spans.ts";
import { RunScript } from "./events-fixture.ts";
import { eachFreshLedger, tempHome, type TempHome } from "./temp-home.ts";

let t: TempHome;
let ledger: ReturnType<typeof openLedger>;
eachFreshLedger((home, opened) => ((t = home), (ledger = opened)));

const hostile = fc.constantFrom(
  "__proto__",
  "constructor",
  "\u0001",
  "\u0002",
  "\u0003",
  "\u0001" + "a".repeat(64) + "\u0002",
  "\u001b[31mred\u001b[0m",
  "\\u0001",
  '"',
  "\\",
  "<script>alert(1)</script>",
  "\ud800",
  "-rf",
  "\n\r\t",
);
const text = fc.oneof(
  fc.string(),
  hostile,
  fc.tuple(hostile, fc.string()).map(([a, b]) => a + b),
);
/** Strings around the inline bound, made of hostile pieces so holes and slices meet them. */
const long = fc
  .tuple(fc.integer({ min: INLINE_MAX - 8, max: 3 * INLINE_MAX }), hostile, text)
  .map(([n, h, s]) => (h + s + "x".repeat(n)).slice(0, n) + h);
/** A result tail is text decoded from a process's bytes, so never a lone surrogate (the decoder
 *  gives U+FFFD): a short one is kept as plain text, where SQLite's UTF-8 would change one. */
const tailText = fc.oneof(text, long).filter((s) => !/[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")));
/** JSON values whose keys and strings may be hostile; objects built by JSON.parse, so a
 *  `__proto__` key is an own key, as it is in an event read from a model or a script. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    text,
    long,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(text, hostile), tie("v")), { maxLength: 4 })
      .map((entries) => JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`) as unknown),
  ),
})).v;

/** A run whose events carry `output` everywhere a value goes: inputs, a branch's item and output,
 *  a node's output and result tail, the run's output. */
function runWith(output: unknown, tail: string, run = "r-prop-0001"): RunScript {
  const s = new RunScript(run);
  s.started({ inputs: { big: output, same: output } });
  s.nodeStarted({ node: "build" }, "script");
  s.finished({ node: "build" }, "passed", { output, result_tail: tail });
  const branch = { map: "each", index: 0 };
  s.ev("branch.started", { branch, item: output, label: "0" });
  s.nodeStarted({ node: "verify", branch }, "agent");
  s.finished({ node: "verify", branch }, "passed", { output, result_tail: tail });
  s.ev("branch.finished", { branch, status: "passed", verdict: null, output });
  s.runFinished("passed", { output });
  return s;
}

function readsBack(l: ReturnType<typeof openLedger>, s: RunScript, output: unknown, tail: string): void {
  expect(l.eventsAfter(s.run, -1, 10_000).map((e) => e.text)).toEqual(s.events.map(eventJson));
  expect(l.runEvents(s.run).map((e) => JSON.stringify(e))).toEqual(s.events.map((e) => JSON.stringify(e)));
  const summary = l.runSummary(s.run);
  const build = summary.nodes.find((n) => n.node === "build")!;
  expect(JSON.stringify(build.output)).toBe(JSON.stringify(output));
  expect(build.attempts[0]!.result_tail).toBe(tail);
  expect(JSON.stringify(summary.run.inputs)).toBe(JSON.stringify({ big: output, same: output }));
  expect(JSON.stringify(summary.run.output)).toBe(JSON.stringify(output));
  const branch = summary.branches[0]!;
  expect(JSON.stringify(branch.item)).toBe(JSON.stringify(output));
  expect(JSON.stringify(branch.nodes[0]!.output)).toBe(JSON.stringify(output));
}

describe("stored text (pure)", () => {
  test("property: expand(compact(text)) is the text, for any value; no hole when nothing is long", () => {
    fc.assert(
      fc.property(value, text, (v, tail) => {
        const blobs = new Map<string, string>();
        const e = { v: 1, run: "r-1", t: "2026-12-01T00:00:00.000Z", seq: 7, type: "node.finished", output: v, result_tail: tail };
        const json = JSON.stringify(e);
        const stored = compact(withoutHeader(json, e), e, (d, b) => blobs.set(d, b));
        expect(stored.startsWith(HEADERLESS)).toBe(true);
        expect(expand(withHeader(stored, e), (d) => blobs.get(d))).toBe(json);
        if (blobs.size === 0) expect(stored).toBe(HEADERLESS + json.slice(headerOf(e).length));
      }),
      { numRuns: 300 },
    );
  });

  test("property: texts seeded from the event's own text (ADR 0084) store exactly what stringifying each value stores", () => {
    // Values inside an array and an object, beside a long member, so the seeds reach several levels.
    const wrapped = fc.tuple(value, long).map(([v, l]) => ({ list: [v, l, { v }], v, l }));
    fc.assert(
      fc.property(wrapped, (v) => {
        const e = { v: 1, run: "r-1", t: "2026-12-01T00:00:00.000Z", seq: 7, type: "node.finished", output: v };
        const json = JSON.stringify(e);
        const plain = new Map<string, string>();
        const stringified = compact(withoutHeader(json, e), e, (d, b) => plain.set(d, b), [], 0, new WeakMap());
        const seededBlobs = new Map<string, string>();
        const texts = new WeakMap<object, string>();
        seedTexts(json, e, texts, INLINE_MAX, MAX_LEVELS + 1);
        const seeded = withoutHeader(
          compact(json, e, (d, b) => seededBlobs.set(d, b), [], 0, texts),
          e,
        );
        expect(seeded).toBe(stringified);
        expect([...seededBlobs].sort()).toEqual([...plain].sort());
      }),
      { numRuns: 300 },
    );
  });

  test("a seed never stands for a value JSON.stringify prints otherwise: a toJSON, a class, a changed key stop it", () => {
    const long = "z".repeat(2 * INLINE_MAX);
    class Box {
      constructor(readonly s: string) {}
    }
    const odd = { a: { toJSON: () => long }, b: new Box(long), c: { long } };
    const texts = new WeakMap<object, string>();
    seedTexts(JSON.stringify(odd), odd, texts, INLINE_MAX, MAX_LEVELS);
    expect(texts.has(odd.a) || texts.has(odd.b)).toBe(false);
    expect(texts.get(odd.c)).toBe(JSON.stringify(odd.c));
    // A text that is not the value's (a key renamed) seeds nothing past the difference.
    const other = { c: { long }, d: { long } };
    const renamed = JSON.stringify(other).replace('"d":', '"e":');
    const t2 = new WeakMap<object, string>();
    seedTexts(renamed, other, t2, INLINE_MAX, MAX_LEVELS);
    expect(t2.has(other.d)).toBe(false);
    expect(t2.has(other)).toBe(false);
  });

  test("a result tail that ends the output is a slice of the output's blob, not a second copy", () => {
    const out = "y".repeat(4000) + "\u001b[0m the end";
    const e = { v: 1, run: "r", t: "t", seq: 1, type: "node.finished", output: out, result_tail: out.slice(-2000) };
    const blobs = new Map<string, string>();
    const stored = compact(withoutHeader(JSON.stringify(e), e), e, (d, b) => blobs.set(d, b));
    expect(blobs.size).toBe(1);
    expect(stored.length).toBeLessThan(300);
    expect(expand(withHeader(stored, e), (d) => blobs.get(d))).toBe(JSON.stringify(e));
  });
});

describe("stored text: bounded work on hostile shapes", () => {
  test("a 300-deep value around a long string: holes for at most MAX_LEVELS levels, read back whole", () => {
    let deep: unknown = "w".repeat(5000);
    for (let i = 0; i < 300; i++) deep = [deep];
    const text = JSON.stringify(deep);
    const blobs = new Map<string, string>();
    const stored = compact(text, [deep], (d, b) => blobs.set(d, b));
    expect(blobs.size).toBeLessThanOrEqual(MAX_LEVELS);
    expect(stored.length).toBeLessThan(100);
    expect(expand(stored, (d) => blobs.get(d))).toBe(text);
  });

  test("2,000 long outputs in a map's results: each its own blob, the results one blob of holes", () => {
    const results = Array.from({ length: 2000 }, (_, i) => ({ index: i, output: `${i}:${"o".repeat(1100)}` }));
    const text = JSON.stringify({ results });
    const blobs = new Map<string, string>();
    let puts = 0;
    const stored = compact(text, [{ results }], (d, b) => (puts++, blobs.set(d, b)));
    // Each output and each result object, the array, the whole: one put each, nothing twice.
    expect(blobs.size).toBe(2000 * 2 + 2);
    expect(puts).toBe(blobs.size);
    expect(expand(stored, (d) => blobs.get(d))).toBe(text);
  });
});

describe("through the ledger", () => {
  test("property: generated values (hostile keys and strings, long ones) read back unchanged by every reader", () => {
    let n = 0;
    fc.assert(
      fc.property(value, tailText, (output, tail) => {
        const s = runWith(output, tail, `r-prop-${String(n++).padStart(4, "0")}`);
        ledger.write(s.events);
        readsBack(ledger, s, output, tail);
      }),
      { numRuns: 60 },
    );
  });

  test("a 150 KB value, a deep one and a value naming a hole: read back unchanged, the long one stored once", () => {
    const big = `${"\u0001".repeat(10)}${"z".repeat(150_000)}\\u0002"__proto__"`;
    let deep: unknown = "bottom";
    for (let i = 0; i < 200; i++) deep = i % 2 === 0 ? [deep] : JSON.parse(`{"__proto__":${JSON.stringify(deep)}}`);
    for (const [i, output] of [big, deep, { big, deep }].entries()) {
      const s = runWith(output, big.slice(-5000), `r-big-000${i}`);
      ledger.write(s.events);
      readsBack(ledger, s, output, big.slice(-5000));
    }
    const db = new Database(ledgerFile(t.home), { readonly: true });
    const holding = db.query("SELECT count(*) AS n FROM blobs WHERE instr(body, ?) > 0").get("z".repeat(150_000)) as { n: number };
    // One blob holds the 150 KB string, whatever held it (inputs, items, outputs of three runs).
    expect(holding.n).toBe(1);
    const inEvents = db.query("SELECT count(*) AS n FROM events WHERE instr(body, ?) > 0").get("z".repeat(1000)) as { n: number };
    expect(inEvents.n).toBe(0);
    db.close();
  });
});

describe("version 5 → 6", () => {
  test("a ledger of version 5 with long values opens at 6, reads as before, and takes a resumed session", () => {
    const home = tempHome();
    try {
      const out = { report: "r".repeat(5000), lines: ["__proto__", "\u0003x"] };
      const tail = "t".repeat(3000);
      const old = openLedger({ home: home.home, migrations: MIGRATIONS.slice(0, 5) });
      const first = runWith(out, tail, "r-old-0001");
      old.write(first.events);
      const before = { events: old.eventsAfter("r-old-0001", -1, 10_000).map((e) => e.text), summary: old.runSummary("r-old-0001") };
      old.close();

      const migrated = openLedger({ home: home.home });
      expect(migrated.eventsAfter("r-old-0001", -1, 10_000).map((e) => e.text)).toEqual(before.events);
      expect(JSON.stringify(migrated.runSummary("r-old-0001"))).toBe(JSON.stringify(before.summary));
      // A resume: a second session of the same run, written at version 6.
      const resumed = new RunScript("r-old-0001", first.seq);
      resumed.clock = first.clock;
      resumed.started({ resumed: true, inputs: { big: out, same: out } });
      resumed.nodeStarted({ node: "build" }, "script");
      resumed.finished({ node: "build" }, "passed", { output: out, result_tail: tail });
      resumed.runFinished("passed", { output: out });
      migrated.write(resumed.events);
      const all: VouchEvent[] = [...first.events, ...resumed.events];
      expect(migrated.eventsAfter("r-old-0001", -1, 10_000).map((e) => e.text)).toEqual(all.map(eventJson));
      const summary = migrated.runSummary("r-old-0001");
      expect(summary.sessions).toHaveLength(2);
      expect(summary.nodes.find((n) => n.node === "build")!.attempts.map((a) => a.result_tail)).toEqual([tail, tail]);
      expect(JSON.stringify(summary.run.output)).toBe(JSON.stringify(out));
      migrated.close();

      const db = new Database(ledgerFile(home.home), { readonly: true });
      expect(db.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
      const bodies = db.query("SELECT session, body FROM events WHERE run_id = 'r-old-0001' ORDER BY seq").all() as {
        session: number;
        body: string;
      }[];
      // Nothing rewritten: version 5's rows are the JSON; the newest's are stored without their
      // header, packed (version 7, ADR 0082).
      expect(bodies.filter((b) => b.session === 1).every((b) => b.body.startsWith("{"))).toBe(true);
      expect(bodies.filter((b) => b.session === 2).every((b) => b.body.startsWith(PACKED))).toBe(true);
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      db.close();
    } finally {
      home.cleanup();
    }
  });

  test("a fresh ledger migrated step by step from nothing reaches the newest version with a blobs table", () => {
    const home = tempHome();
    try {
      openLedger({ home: home.home, migrations: MIGRATIONS.slice(0, 5) }).close();
      const db = new Database(ledgerFile(home.home));
      expect(migrate(db)).toBe(SCHEMA_VERSION);
      expect(db.query("SELECT count(*) AS n FROM blobs").get()).toEqual({ n: 0 });
      db.close();
    } finally {
      home.cleanup();
    }
  });
});

describe("the events' index by type (dropped at version 6)", () => {
  // Every query of a run's events by type, as the readers write them: each reads the run's
  // (run_id, seq) range, with or without events_by_type, so dropping it changes no read.
  const queries = [
    "SELECT run_id, seq, t, type, body FROM events WHERE run_id = ? AND type = 'node.finished' AND body LIKE ? ORDER BY seq",
    "SELECT run_id, seq, t, type, body FROM events WHERE run_id = ? AND session = ? AND type = 'run.paused' ORDER BY seq DESC LIMIT 1",
    "SELECT run_id, seq, t, type, body FROM events WHERE run_id = ? AND type = 'run.started'",
  ];
  const plans = (db: Database) =>
    queries.map((q) => (db.query(`EXPLAIN QUERY PLAN ${q}`).all() as { detail: string }[]).map((r) => r.detail).join("; "));

  test("gone from a ledger of version 6, and the queries by type read the run's key range, as they did with it", () => {
    const home = tempHome();
    try {
      const old = openLedger({ home: home.home, migrations: MIGRATIONS.slice(0, 5) });
      old.write(runWith("x", "y", "r-plan-0001").events);
      old.close();
      const v5 = new Database(ledgerFile(home.home), { readonly: true });
      expect(v5.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'events_by_type'").get()).toEqual({ n: 1 });
      const before = plans(v5);
      v5.close();
      openLedger({ home: home.home }).close();
      const v6 = new Database(ledgerFile(home.home), { readonly: true });
      expect(v6.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'events_by_type'").get()).toEqual({ n: 0 });
      expect(plans(v6)).toEqual(before);
      expect(before.every((p) => p.includes("USING PRIMARY KEY (run_id=?)"))).toBe(true);
      v6.close();
    } finally {
      home.cleanup();
    }
  });
});
