// A terminal for startTui() in tests: a stdout that records what is written
// (and reports a size), a stdin that records raw-mode changes and lets a test type keys.
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eventSchema, type VouchEvent } from "../../../src/engine/events.ts";
import type { FrameScheduler } from "../../../src/tui/throttle.ts";

export class FakeStdout extends EventEmitter {
  isTTY = true;
  writable = true;
  readonly writes: string[] = [];
  constructor(
    public columns = 100,
    public rows = 40,
  ) {
    super();
  }
  write(chunk: string | Uint8Array, encodingOrCb?: unknown, cb?: unknown): boolean {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    if (text.length) this.writes.push(text);
    const done = typeof encodingOrCb === "function" ? encodingOrCb : cb;
    if (typeof done === "function") queueMicrotask(() => (done as () => void)());
    return true;
  }
  /** Everything written, as one string. */
  all(): string {
    return this.writes.join("");
  }
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit("resize");
  }
}

export class FakeStdin extends EventEmitter {
  isTTY = true;
  readonly rawModes: boolean[] = [];
  private queue: string[] = [];
  setRawMode(on: boolean): this {
    this.rawModes.push(on);
    return this;
  }
  get isRaw(): boolean {
    return this.rawModes[this.rawModes.length - 1] === true;
  }
  setEncoding(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  read(): string | null {
    return this.queue.shift() ?? null;
  }
  /** Type keys: each call is one keypress chunk. */
  type(data: string): void {
    this.queue.push(data);
    this.emit("readable");
  }
}

export const KEYS = {
  up: "\u001b[A",
  down: "\u001b[B",
  right: "\u001b[C",
  left: "\u001b[D",
  enter: "\r",
  escape: "\u001b",
  ctrlC: "\u0003",
};

/** A clock that moves only when told; timers fire in order as time passes. */
export class ManualScheduler implements FrameScheduler {
  private t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private next = 0;
  constructor(start = Date.parse("2026-11-29T10:00:30.000Z")) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  schedule(fn: () => void, ms: number): () => void {
    const id = this.next++;
    this.timers.push({ at: this.t + ms, fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }
  /** Advance the clock by ms, firing every timer that comes due on the way. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const due = this.timers[0];
      if (!due || due.at > end) break;
      this.timers.shift();
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
  get pending(): number {
    return this.timers.length;
  }
}

export function loadFixture(name: string): VouchEvent[] {
  const text = readFileSync(join(import.meta.dirname, "..", "fixtures", `${name}.ndjson`), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => eventSchema.parse(JSON.parse(l)));
}

/** Wait for React and Ink to settle (a few macrotasks). */
export async function settle(times = 3): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise((r) => setImmediate(r));
}

// eslint-disable-next-line no-control-regex
export const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/** Wait until `cond()` holds (checked every 10 ms), failing after `ms` — no fixed sleeps on a busy machine. */
export async function waitFor(cond: () => boolean, ms = 10_000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
