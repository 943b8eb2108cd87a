// A run's stream entry holds one or more sealed messages (ADR 0079): each opens on its
// own with the fleet key, in order; what does not verify is dropped without taking the
// others with it; and no layout of fields a hostile writer can put in Redis throws.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { sealMessage, type StreamMessage } from "../../src/executor/protocol.ts";
import { entryFields, openEntry } from "../../src/executor/redis/stream-entry.ts";

const KEY = FleetKey.of("stream-entry-test-key-0123456789abcdef", "test");
const RUN = "20260101-000000-abcdef";

const message = fc.record({
  kind: fc.constant("attempt" as const),
  job: fc.string({ maxLength: 20 }),
  worker: fc.string({ maxLength: 20 }),
  attempt: fc.integer({ min: 1, max: 9 }),
}) as fc.Arbitrary<StreamMessage>;

describe("stream entries of several messages", () => {
  test("every message comes back, in order", () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 12 }), (ms) => {
        const fields = entryFields(ms.map((m) => sealMessage(RUN, m, KEY)));
        expect(openEntry(fields, RUN, KEY)).toEqual(ms);
      }),
    );
  });

  test("a pair that was changed is dropped alone; the others stand", () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 2, maxLength: 8 }), fc.nat(), fc.boolean(), (ms, at, onText) => {
        const i = at % ms.length;
        const fields = entryFields(ms.map((m) => sealMessage(RUN, m, KEY)));
        fields[4 * i + (onText ? 1 : 3)] += onText ? " " : "0";
        expect(openEntry(fields, RUN, KEY)).toEqual(ms.map((m, j) => (j === i ? null : m)));
      }),
    );
  });

  test("another run's or another key's messages do not open", () => {
    const fields = entryFields([sealMessage(RUN, { kind: "attempt", job: "j", worker: "w", attempt: 1 }, KEY)]);
    expect(openEntry(fields, "20260101-000000-other0", KEY)).toEqual([null]);
    expect(openEntry(fields, RUN, FleetKey.of("another-key-0123456789abcdef0123", "test"))).toEqual([null]);
  });

  test("any layout of fields is read without throwing, and an entry with no message is one drop", () => {
    const name = fc.constantFrom("m", "h", "x", "__proto__", "constructor", "");
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string({ maxLength: 30 })), { maxLength: 10 }), (pairs) => {
        const out = openEntry(pairs.flat(), RUN, KEY);
        expect(out.length).toBeGreaterThan(0);
        expect(out.every((m) => m === null)).toBe(true);
      }),
    );
    expect(openEntry([], RUN, KEY)).toEqual([null]);
    expect(openEntry(["h", "x", "x", "y"], RUN, KEY)).toEqual([null]);
    // A text with no MAC after it is dropped, and does not swallow the next message.
    const ok = sealMessage(RUN, { kind: "attempt", job: "j", worker: "w", attempt: 2 }, KEY);
    expect(openEntry(["m", "{}", "m", ok.text, "h", ok.mac], RUN, KEY)).toEqual([null, JSON.parse(ok.text)]);
  });
});
