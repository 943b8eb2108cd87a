// `--json`: exactly one JSON line per event, parseable back to the same event; EPIPE is quiet.
import { describe, expect, test } from "vitest";
import { eventSchema } from "../../src/engine/events.ts";
import { createNdjsonOutput, LONG_EVENT_CHARS } from "../../src/tui/ndjson-output.ts";
import { loadFixture } from "./helpers/fake-terminal.ts";

describe("NDJSON output", () => {
  test("one line per event, each parsing back to the event it came from (progress included)", async () => {
    const events = loadFixture("failed-check");
    let text = "";
    const out = createNdjsonOutput((t) => (text += t));
    for (const e of events) out.push(e);
    await out.close();
    const lines = text.split("\n");
    expect(lines.pop()).toBe(""); // ends with a newline
    expect(lines).toHaveLength(events.length);
    expect(lines.map((l) => eventSchema.parse(JSON.parse(l)))).toEqual(events);
    expect(lines.some((l) => l.includes('"type":"node.progress"'))).toBe(true);
  });

  test("pushMany writes a batch in one write, the same text as pushing each", async () => {
    const events = loadFixture("map-mixed");
    let one = "";
    const each = createNdjsonOutput((t) => (one += t));
    for (const e of events) each.push(e);
    const writes: string[] = [];
    const batched = createNdjsonOutput((t) => void writes.push(t));
    batched.pushMany!(events);
    expect(writes).toEqual([one]);
    await batched.close();
    batched.pushMany!(events);
    expect(writes).toHaveLength(1);
  });

  test("a long event's text is written by itself, not copied into the batch's text; the bytes are the same (ADR 0086)", () => {
    const events = loadFixture("map-mixed");
    const at = events.findIndex((e) => e.type === "node.finished");
    const long = { ...events[at]!, output: { results: "r".repeat(LONG_EVENT_CHARS * 2) } } as (typeof events)[number];
    const all = [...events.slice(0, at), long, ...events.slice(at)];
    let one = "";
    const each = createNdjsonOutput((t) => (one += t));
    for (const e of all) each.push(e);
    const writes: string[] = [];
    createNdjsonOutput((t) => void writes.push(t)).pushMany!(all);
    expect(writes.join("")).toBe(one);
    const longText = JSON.stringify(long);
    expect(writes).toContain(longText); // alone: no write holds it with anything else
    expect(writes.filter((w) => w.length >= LONG_EVENT_CHARS)).toEqual([longText]);
    expect(writes).toHaveLength(3); // the batch before it, the long text, its newline and the rest
    const pushed: string[] = [];
    createNdjsonOutput((t) => void pushed.push(t)).push(long);
    expect(pushed).toEqual([longText, "\n"]);
  });

  test("multi-line text inside an event stays on one line", () => {
    let text = "";
    const out = createNdjsonOutput((t) => (text += t));
    const e = loadFixture("failed-check").find((x) => x.type === "check.finished")!;
    out.push(e);
    expect(text.split("\n")).toHaveLength(2);
    expect(JSON.parse(text)).toEqual(e);
  });

  test("a closed pipe (EPIPE) stops the output without an error; other errors are not hidden", () => {
    let calls = 0;
    const out = createNdjsonOutput(() => {
      calls++;
      throw Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    });
    for (const e of loadFixture("map-mixed")) out.push(e);
    expect(calls).toBe(1);
    const failing = createNdjsonOutput(() => {
      throw Object.assign(new Error("no space"), { code: "ENOSPC" });
    });
    expect(() => failing.push(loadFixture("map-mixed")[0]!)).toThrow("no space");
  });

  test("nothing is written after close()", async () => {
    let text = "";
    const out = createNdjsonOutput((t) => (text += t));
    await out.close();
    out.push(loadFixture("map-mixed")[0]!);
    expect(text).toBe("");
  });
});
