// The fast reading of stored events (ADR 0094) gives what zod's eventSchema gives, or UNSURE
// (then zod reads it): never a value zod would refuse or shape differently. Built from the
// schema itself, so every event type the fixtures write is compared, and mutated ones too.
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { expect, test, vi } from "vitest";
import { eventSchema, type VouchEvent } from "../../src/engine/events.ts";
import { fastEvent, UNSURE } from "../../src/ledger/event-fast.ts";
import { runEvents } from "../../src/ledger/run-events.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { fullRun, mapEndRun } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

const samples: VouchEvent[] = [...fullRun("r-a").events, ...mapEndRun("r-b", 3).script.events];
const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

/** Same value, same key order, same kinds all the way down. */
function agrees(raw: unknown): void {
  const fast = fastEvent(raw);
  if (fast === UNSURE) return;
  const zod = eventSchema.safeParse(raw);
  expect(zod.success, JSON.stringify(raw)).toBe(true);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
  expect(Bun.deepEquals(fast, zod.data, true)).toBe(true);
}

test("every event type the fixtures write is read as zod reads it, and most without zod", () => {
  const unsure = new Set<string>();
  for (const e of samples) {
    const raw = json(e);
    agrees(raw);
    if (fastEvent(raw) === UNSURE) unsure.add(e.type);
  }
  // run.started's inputs is a record, which the fast reading leaves to zod.
  expect([...unsure]).toEqual(["run.started"]);
  expect(new Set(samples.map((e) => e.type)).size).toBeGreaterThan(15);
});

test("an unknown value keeps its reference; objects and arrays are new, as zod makes them", () => {
  const raw = json(mapEndRun("r-b", 2).finished) as { output: unknown; tokens?: unknown };
  const fast = fastEvent(raw) as unknown as { output: unknown };
  expect(fast).not.toBe(raw);
  expect(fast.output).toBe(raw.output);
});

const jsonValue = fc.jsonValue({ maxDepth: 2 });
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value: jsonValue }),
  fc.record({
    kind: fc.constant("add" as const),
    key: fc.constantFrom("extra", "__proto__", "constructor", "item", "v"),
    value: jsonValue,
  }),
  fc.record({ kind: fc.constant("deep" as const), at: fc.nat(), value: jsonValue }),
);

type Mutation = { kind: "drop" | "set" | "add" | "deep"; at?: number; key?: string; value?: unknown };

function mutate(e: Record<string, unknown>, m: Mutation): unknown {
  const at = m.at ?? 0;
  const raw = JSON.parse(JSON.stringify(e)) as Record<string, unknown>;
  const keys = Object.keys(raw);
  if (m.kind === "drop") delete raw[keys[at % keys.length]!];
  else if (m.kind === "set") raw[keys[at % keys.length]!] = m.value;
  else if (m.kind === "add") return JSON.parse(`${JSON.stringify(raw).slice(0, -1)},${JSON.stringify(m.key)}:${JSON.stringify(m.value)}}`);
  else {
    const objects = keys.filter((k) => typeof raw[k] === "object" && raw[k] !== null);
    if (objects.length === 0) return raw;
    const inner = raw[objects[at % objects.length]!] as Record<string, unknown>;
    const ik = Object.keys(inner);
    if (ik.length > 0) inner[ik[at % ik.length]!] = m.value;
  }
  return raw;
}

test("a mutated event is read as zod reads it, or left to zod", () => {
  fc.assert(
    fc.property(fc.nat({ max: samples.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), (i, ms) => {
      let raw: unknown = samples[i];
      for (const m of ms) raw = mutate(raw as Record<string, unknown>, m as Mutation);
      agrees(raw);
    }),
    { numRuns: 3000 },
  );
});

test("reading a run back asks zod for none of its common events", () => {
  const t = tempHome();
  try {
    const ledger = openLedger({ home: t.home });
    const run = fullRun("r-a");
    ledger.write(run.events);
    ledger.close();
    const safeParse = vi.spyOn(eventSchema, "safeParse");
    const db = new Database(`${t.home}/ledger.sqlite`);
    expect(runEvents(db, "r-a", "f")).toEqual(run.events);
    db.close();
    // run.started only; on main every event (one call each).
    expect(safeParse.mock.calls.length).toBe(1);
    safeParse.mockRestore();
  } finally {
    t.cleanup();
  }
});
