// A map's end through the real ledger (ADR 0084): the node.finished of a 20,000-item map holds
// every branch's result (~2 MB of JSON here, ~9 MB at 100,000). Writing it stringified its output
// and the results inside it again (two more whole copies, ~20 MB each while built at 100,000),
// stringified each branch's result once more (20,000 small texts held for the write), copied the
// event's text to take its header off, and hashed and bound the results' blob twice (the event's
// body and the node's row). Counted here, not timed: each is now once, or none.
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import { eventJson } from "../../src/engine/events.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { digestOf } from "../../src/ledger/stored-text.ts";
import { mapEndRun } from "./events-fixture.ts";
import { tempHome, type TempHome } from "./temp-home.ts";

const BRANCHES = 20_000;
/** Bytes from which a text counts as a copy of the whole results (they are ~2 MB). */
const WHOLE = 1_000_000;
// A blob is bound packed (ADR 0082): the results' 1 MB of JSON binds as about half a megabyte.
const BOUND_MIN = WHOLE / 4;

/** A run whose map `each` ended with BRANCHES results, as MapRunner builds them. */
const mapEnd = () => mapEndRun("r-map-end-0001", BRANCHES);

const realStringify = JSON.stringify;
const realQuery = Database.prototype.query;
let home: TempHome | null = null;
let ledger: ReturnType<typeof openLedger> | null = null;
afterEach(() => {
  JSON.stringify = realStringify;
  Database.prototype.query = realQuery;
  ledger?.close();
  home?.cleanup();
  ledger = home = null;
});

/** A fresh ledger whose blob inserts record the length of each body of `BOUND_MIN` or more they bind. */
function countingLedger(bound: number[]): ReturnType<typeof openLedger> {
  Database.prototype.query = function (this: Database, sql: string) {
    const st = realQuery.call(this, sql);
    if (sql.includes("INTO blobs") && !(st as { counted?: true }).counted) {
      const run = st.run.bind(st);
      Object.assign(st, {
        counted: true,
        run: (...params: unknown[]) => {
          for (const p of params) if (typeof p === "string" && p.length >= BOUND_MIN) bound.push(p.length);
          return run(...(params as never[]));
        },
      });
    }
    return st;
  } as typeof Database.prototype.query;
  home = tempHome();
  return openLedger({ home: home.home });
}

describe("a 20,000-item map's node.finished in the ledger", () => {
  test("no text is made per branch, no second copy of the results, and their blob is hashed and bound once", () => {
    const { script, finished } = mapEnd();
    const [before, last] = [script.events.slice(0, -1), finished];
    const bound: number[] = [];
    ledger = countingLedger(bound);
    const sink = ledger.sink(() => {});
    for (const e of before) sink.append(e);
    sink.flush();
    const text = eventJson(last); // made once for the ledger and --json alike (events.ts)
    expect(text.length).toBeGreaterThan(2 * WHOLE - 500_000);

    const made: number[] = [];
    JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
      const out = realStringify(...args);
      made.push(typeof out === "string" ? out.length : 0);
      return out;
    }) as typeof JSON.stringify;
    sink.append(last);
    sink.flush();
    JSON.stringify = realStringify;
    sink.close();

    // Before ADR 0084: 20,000 + 2 texts made (one per branch, output and results whole), bound twice.
    expect(made.length).toBeLessThanOrEqual(64);
    expect(made.filter((n) => n >= WHOLE)).toEqual([]);
    expect(bound).toHaveLength(1);
    // And the event reads back as it was written.
    const back = ledger.eventsAfter(script.run, -1, 10).map((e) => e.text);
    expect(back.at(-1)).toBe(text);
    expect(JSON.stringify(ledger.runSummary(script.run).nodes.find((n) => n.node === "each")!.output)).toBe(JSON.stringify(last.output));
  });
});

describe("digestOf in slices", () => {
  const piece = fc.constantFrom("a", "é", "\u{1f600}", "\ud800", "\udc00", "\u0000", '"');
  // The property's counterexample (seed -1131789105, review r36rt): a lone high surrogate last in
  // a slice, then a pair; the slice stepped forward and split the pair (failed before the fix).
  test("a lone high surrogate at a slice's end, a pair after it", () => {
    const s = `${"x".repeat(64 * 1024 - 3)}aa\ud800\ud800\udc00`;
    expect(digestOf(s)).toBe(createHash("sha256").update(s).digest("hex"));
  });
  test("property: the digest of the whole text, surrogate pairs across a slice's end included", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.array(piece, { maxLength: 40 }), (k, tail) => {
        // Around the 64 KiB boundary, where a pair may straddle it.
        const s = "x".repeat(64 * 1024 * k + (k > 0 ? -3 : 0)) + tail.join("");
        expect(digestOf(s)).toBe(createHash("sha256").update(s).digest("hex"));
      }),
      { numRuns: 60 },
    );
  });
});
