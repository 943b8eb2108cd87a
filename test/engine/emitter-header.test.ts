// The envelope is the emitter's: a body that carries header keys of its own (a worker's event
// arrives as data, ADR 0026) cannot file itself under another run, sequence number or time
// (found in review: `{...header, ...body}` let the body win; with ledger schema 6 a `t` of 5 read
// back as "5").
import { expect, test } from "vitest";
import { Emitter } from "../../src/engine/run/emitter.ts";
import type { EventBody, VouchEvent } from "../../src/engine/events.ts";
import type { Clock, Ledger } from "../../src/engine/ports.ts";

test("header keys in a body never override the envelope, and the envelope's keys come first", () => {
  const appended: VouchEvent[] = [];
  const ledger = { append: (e: VouchEvent) => appended.push(e) } as unknown as Ledger;
  const clock = { now: () => 0 } as unknown as Clock;
  const emitter = new Emitter("R1", clock, ledger, 7);
  const hostile = { type: "node.progress", node: "a", v: 2, run: "OTHER", t: 5, seq: 0 } as unknown as EventBody;
  const event = emitter.emit(hostile) as unknown as Record<string, unknown>;
  expect(event).toMatchObject({ v: 1, run: "R1", t: "1970-01-01T00:00:00.000Z", seq: 7, type: "node.progress", node: "a" });
  expect(Object.keys(event).slice(0, 5)).toEqual(["v", "run", "t", "seq", "type"]);
  expect(appended[0]).toBe(event);
});

test("a body without header keys is copied once: no second pass to set the header again (ADR 0092)", () => {
  const ledger = { append: () => {} } as unknown as Ledger;
  const emitter = new Emitter("R1", { now: () => 0 } as unknown as Clock, ledger, 0);
  const realAssign = Object.assign;
  let assigns = 0;
  Object.assign = ((...args: Parameters<typeof realAssign>) => {
    assigns++;
    return realAssign(...args);
  }) as typeof Object.assign;
  let last: Record<string, unknown> = {};
  try {
    for (let i = 0; i < 100; i++) last = emitter.emit({ type: "node.progress", node: "a", attempt: 1 } as unknown as EventBody) as never;
  } finally {
    Object.assign = realAssign;
  }
  // Main: one Object.assign per event (100).
  expect(assigns).toBe(0);
  expect(Object.keys(last)).toEqual(["v", "run", "t", "seq", "type", "node", "attempt"]);
  expect(last).toMatchObject({ v: 1, run: "R1", seq: 99 });
});
