// What the ledger's writer does per event of a map of replayed sittings (ADR 0092), counted, not
// timed: 10,000 sittings are 70,000 events, and the write was more than half of the run's main
// thread. Each event's text is made once (eventJson, which --json prints too); its stored body is
// that text without its header, packed (ADR 0082). The header used to be rebuilt with three more
// JSON texts per event to be compared, and every body went through one regular-expression pass
// with a callback per fragment; a short body is now packed by a scan, the header compared piece
// by piece from texts kept across events.
import { afterEach, describe, expect, test } from "vitest";
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { eventJson, type VouchEvent } from "../../src/engine/events.ts";
import { FRAGMENT_TOKENS, pack, packFrom } from "../../src/ledger/event-fragments.ts";
import { packed, packedWithoutHeader, withoutHeader } from "../../src/ledger/stored-text.ts";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";
import { tempHome, type TempHome } from "./temp-home.ts";

const ITEMS = 300;
const BATCH = 256;

/** A run of `n` replayed sittings, each branch's events as the engine emits them (bench/graphs/sched.yaml). */
function sittings(n: number): VouchEvent[] {
  const s = new RunScript("r-sittings-0001");
  s.started({
    nodes: [
      { id: "each", kind: "map", needs: [] },
      { id: "work", kind: "agent", needs: [], map: "each" },
    ],
  });
  s.nodeStarted({ node: "each" }, "map");
  for (let index = 0; index < n; index++) {
    const branch = { map: "each", index };
    const ref = { node: "work", branch };
    const tokens = { input: 1, output: 1, cache_read: 0, cache_creation: 0 };
    s.ev("branch.started", { branch, item: `item-${index}`, label: `item-${index}` }, 0);
    s.ev(
      "node.started",
      { ...ref, kind: "agent", attempt: 1, harness: "replay", prompt: `check item-${index}`, cwd: "/w", sealed: true },
      0,
    );
    s.ev("node.progress", { ...ref, attempt: 1, turns: 1, tokens, activity: "checked" }, 0);
    s.ev("node.progress", { ...ref, attempt: 1, turns: 1, cost_usd: 0, activity: "checked" }, 0);
    s.judged(ref, "agent", 1, { status: "passed", qualifier: "exit-only", harness: "replay", cost_usd: 0, turns: 1 });
    s.finished(ref, "passed", {
      qualifier: "exit-only",
      stop_reason: "complete",
      cost_usd: 0,
      turns: 1,
      wall_ms: 1,
      tokens,
      output: "checked",
      result_tail: "checked",
      session_id: "bench-1",
      sealed: true,
    });
    s.ev("branch.finished", { branch, status: "passed", verdict: null, output: "checked" }, 0);
  }
  return s.events;
}

const realStringify = JSON.stringify;
const realReplace = String.prototype.replace;
let home: TempHome | null = null;
afterEach(() => {
  JSON.stringify = realStringify;
  String.prototype.replace = realReplace;
  home?.cleanup();
  home = null;
});

describe("the ledger's write of one replayed sitting's events", () => {
  test("one JSON text for the header and body and no regular-expression pass per event; the bodies read back as written", () => {
    const events = sittings(ITEMS);
    home = tempHome();
    const ledger = openLedger({ home: home.home });
    let texts = 0;
    let replaces = 0;
    JSON.stringify = ((...args: Parameters<typeof realStringify>) => {
      texts++;
      return realStringify(...args);
    }) as typeof JSON.stringify;
    String.prototype.replace = function (this: string, ...args: unknown[]) {
      replaces++;
      return (realReplace as (...a: unknown[]) => string).apply(this, args);
    } as typeof String.prototype.replace;
    for (let at = 0; at < events.length; at += BATCH) ledger.write(events.slice(at, at + BATCH));
    JSON.stringify = realStringify;
    String.prototype.replace = realReplace;
    ledger.close();

    // Main (before ADR 0092): 5.0 JSON texts and 1.0 replace per event. Now 2.15: the event's text,
    // and the projections' short values (an output, an item, the tokens, a verdict).
    expect(texts / events.length).toBeLessThanOrEqual(2.25);
    expect(replaces / events.length).toBeLessThanOrEqual(0.05);

    const reader = openLedger({ home: home.home });
    try {
      const back = reader.runEvents("r-sittings-0001").map((e) => eventJson(e));
      expect(back).toEqual(events.map((e) => realStringify(e)));
    } finally {
      reader.close();
    }
    // Every body is stored packed: the scan writes what the expression wrote (packed-events.test.ts).
    const db = new Database(ledgerFile(home.home), { readonly: true });
    try {
      const unpacked = db.query("SELECT count(*) AS n FROM events WHERE substr(body, 1, 1) <> char(4)").get() as { n: number };
      expect(unpacked.n).toBe(0);
    } finally {
      db.close();
    }
  });
});

/** The packing ADR 0082 wrote, as an expression: what the scan must give, character for character. */
const tokenOf = new Map(FRAGMENT_TOKENS.map((t) => [t.fragment, t.token]));
const oracleRe = new RegExp(
  [...tokenOf.keys()]
    .sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|"),
  "g",
);
const oracle = (text: string): string | null => (/[\u0004-\u001f]/.test(text) ? null : text.replace(oracleRe, (f) => tokenOf.get(f)!));

const fragments = FRAGMENT_TOKENS.map((t) => t.fragment);
/** Fragments whole, cut at either end, abutting and overlapping, with JSON around them. */
const piece = fc.oneof(
  fc.constantFrom(...fragments),
  fc.constantFrom(...fragments).chain((f) => fc.nat(f.length).map((n) => f.slice(0, n))),
  fc.constantFrom(...fragments).chain((f) => fc.nat(f.length).map((n) => f.slice(n))),
  fc.constantFrom('"', ",", "{", "}", ":", "n", "p", "f", "\u0004", "\u001f", "\u0003", "\u0001" + "a".repeat(64) + "\u0002"),
  fc.string(),
);
const text = fc.oneof(
  fc.array(piece, { maxLength: 16 }).map((p) => p.join("")),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
);

describe("the scan packs as the expression did", () => {
  test("property: pack(text) and packFrom(text, k) are the expression's packing of text and of its rest", () => {
    fc.assert(
      fc.property(text, fc.nat(40), (t, k) => {
        expect(pack(t)).toBe(oracle(t));
        const from = Math.min(k, t.length);
        expect(packFrom(t, from)).toBe(oracle(t.slice(from)));
      }),
      { numRuns: 2000 },
    );
  });

  test("every event of the sittings' run and every fragment after any other: as the expression", () => {
    for (const e of sittings(3)) expect(pack(eventJson(e))).toBe(oracle(eventJson(e)));
    for (const a of fragments) for (const b of fragments) expect(pack(a + b)).toBe(oracle(a + b));
  });

  test("property: packedWithoutHeader is packed(withoutHeader()) for real headers and crafted ones", () => {
    const events = sittings(2);
    const header = fc.record({
      run: fc.oneof(fc.constant("r-sittings-0001"), fc.string()),
      t: fc.oneof(fc.constant(events[0]!.t), fc.string()),
      seq: fc.oneof(fc.nat(20), fc.constant(-1), fc.constant(1.5)),
      type: fc.oneof(fc.constantFrom(...events.map((e) => e.type)), fc.string()),
    });
    fc.assert(
      fc.property(fc.constantFrom(...events), header, fc.boolean(), text, (e, h, real, tail) => {
        const t = eventJson(e);
        for (const [body, hd] of [
          [t, real ? e : h],
          [t.slice(0, t.indexOf(',"type":') + 8) + JSON.stringify(e.type) + tail, e],
          [t + tail, e],
        ] as const)
          expect(packedWithoutHeader(body, hd)).toBe(packed(withoutHeader(body, hd)));
      }),
      { numRuns: 1000 },
    );
  });
});
