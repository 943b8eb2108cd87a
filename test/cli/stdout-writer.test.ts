// stdout on a pipe or a file is written synchronously, a slice at a time (ADR 0086): what a
// reader has not taken yet is never held by vouch beyond one slice, and a long text is never
// converted whole. Counted with a fake write(2), not timed.
import { describe, expect, test } from "vitest";
import { FULL_WAIT_MS, SLICE_CHARS, syncWriter, type SyncWriterDeps } from "../../src/cli/stdout-writer.ts";

/** A pipe that takes at most `take` bytes a call and is full (EAGAIN) every `fullEvery`th call. */
function fakePipe(take: number, fullEvery = 0) {
  const got: Uint8Array[] = [];
  let calls = 0;
  let largest = 0;
  let waits = 0;
  let closed = 0;
  const fallback: string[] = [];
  let fail: string | null = null;
  const deps: SyncWriterDeps = {
    write(bytes, offset, length) {
      calls++;
      if (fail) throw Object.assign(new Error(fail), { code: fail });
      if (fullEvery > 0 && calls % fullEvery === 0) throw Object.assign(new Error("EAGAIN"), { code: "EAGAIN" });
      largest = Math.max(largest, offset + length);
      const n = Math.min(take, length);
      got.push(Uint8Array.prototype.slice.call(bytes, offset, offset + n)); // a copy: the writer reuses its buffer
      return n;
    },
    wait: (ms) => {
      expect(ms).toBe(FULL_WAIT_MS);
      waits++;
    },
    closed: () => void closed++,
    fallback: (t) => void fallback.push(t),
  };
  return {
    deps,
    text: () => Buffer.concat(got).toString("utf8"),
    stats: () => ({ largest, waits, closed, fallback }),
    failWith: (code: string) => void (fail = code),
  };
}

describe("the synchronous stdout writer", () => {
  test("a 4 MB text is written whole before the call returns, never more than a slice encoded at once", () => {
    const pipe = fakePipe(4096, 3);
    const write = syncWriter(pipe.deps);
    const line = `${JSON.stringify({ results: Array.from({ length: 40_000 }, (_, i) => ({ index: i, item: `item-${i}` })) })}\n`;
    expect(line.length).toBeGreaterThan(1_000_000);
    write(line);
    expect(pipe.text()).toBe(line);
    const { largest, waits } = pipe.stats();
    expect(largest).toBeLessThanOrEqual(SLICE_CHARS * 3); // UTF-8: at most 3 bytes a UTF-16 unit
    expect(largest).toBe(SLICE_CHARS); // ASCII: exactly one slice
    expect(waits).toBeGreaterThan(0); // a full pipe waited for, not buffered
  });

  test("a surrogate pair across a slice boundary is written as one character", () => {
    const pipe = fakePipe(7);
    const write = syncWriter(pipe.deps, 8);
    const text = `${"a".repeat(7)}😀${"b".repeat(20)}é€😀\n`;
    write(text);
    expect(pipe.text()).toBe(text);
  });

  test("a reader that went away (EPIPE) is told once and nothing more is written", () => {
    const pipe = fakePipe(4096);
    const write = syncWriter(pipe.deps);
    write("first\n");
    pipe.failWith("EPIPE");
    write("second\n");
    write("third\n");
    expect(pipe.text()).toBe("first\n");
    expect(pipe.stats().closed).toBe(1);
    expect(pipe.stats().fallback).toEqual([]);
  });

  test("any other write error hands this text and every later one to the old writer", () => {
    const pipe = fakePipe(4096);
    const write = syncWriter(pipe.deps);
    pipe.failWith("EBADF");
    write("one\n");
    write("two\n");
    expect(pipe.stats().fallback).toEqual(["one\n", "two\n"]);
    expect(pipe.stats().closed).toBe(0);
  });
});
