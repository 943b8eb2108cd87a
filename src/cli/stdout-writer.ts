// stdout that is not a terminal (a pipe, a file) is written synchronously, in slices
// (ADR 0086). Bun's process.stdout puts a pipe in non-blocking mode and keeps whatever
// the reader has not taken yet in its own buffer, with no bound: a `--json` run whose
// reader fell behind held its unread NDJSON (21 MB for 10,000 replayed sittings) on top
// of its own memory. Node writes pipes synchronously on Linux; so does this: a write
// waits while the pipe is full, so at most one slice (SLICE_CHARS) is held beyond the
// pipe's own buffer, and a long text (a map's node.finished) is never copied whole.
// A reader that goes away (EPIPE) is told to stdoutClosed, as process.stdout's error
// event tells it; any other error hands this and every later write to process.stdout.
import { writeSync } from "node:fs";

/** Characters encoded and written at a time: a 9.4 MB line costs one 192 KiB buffer, not 9.4 MB. */
export const SLICE_CHARS = 64 * 1024;

/** How long a write waits for the reader when the pipe is full, before trying again. */
export const FULL_WAIT_MS = 1;

export interface SyncWriterDeps {
  /** write(2): bytes written, or throws (EAGAIN when the pipe is full, EPIPE when the reader left). */
  write(bytes: Uint8Array, offset: number, length: number): number;
  /** Waits `ms` without returning to the event loop. */
  wait(ms: number): void;
  /** The reader went away: called once, after the write that found it. */
  closed(): void;
  /** Any other write error: the text goes the old way, and so does every later one. */
  fallback(text: string): void;
}

const waitCell = new Int32Array(new SharedArrayBuffer(4));

/** The writer for fd 1 when it is not a terminal. */
export function stdoutWriter(closed: () => void): (text: string) => void {
  return syncWriter({
    write: (bytes, offset, length) => writeSync(1, bytes, offset, length),
    wait: (ms) => void Atomics.wait(waitCell, 0, 0, ms),
    closed: () => queueMicrotask(closed),
    fallback: (text) => void process.stdout.write(text),
  });
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** A writer that writes each text whole before it returns, SLICE_CHARS at a time, each slice
 *  encoded into the same buffer (a 9.4 MB line made no 9.4 MB of buffers for the collector). */
export function syncWriter(deps: SyncWriterDeps, slice = SLICE_CHARS): (text: string) => void {
  let state: "open" | "gone" | "fallback" = "open";
  // UTF-8 takes at most 3 bytes a UTF-16 unit (a pair: 4 for 2); one more unit than a slice.
  const buffer = Buffer.allocUnsafe((slice + 1) * 3);
  const writeAll = (length: number): void => {
    let off = 0;
    while (off < length) {
      try {
        off += deps.write(buffer, off, length - off);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
        deps.wait(FULL_WAIT_MS);
      }
    }
  };
  return (text) => {
    if (state === "gone") return;
    if (state === "fallback") return deps.fallback(text);
    let start = 0;
    while (start < text.length) {
      let end = Math.min(text.length, start + slice);
      // Never between the halves of a surrogate pair: each half alone would encode as U+FFFD.
      if (end < text.length && isHigh(text.charCodeAt(end - 1))) end++;
      try {
        writeAll(buffer.write(start === 0 && end === text.length ? text : text.slice(start, end), 0, "utf8"));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "EPIPE") {
          state = "gone";
          deps.closed();
          return;
        }
        state = "fallback";
        return deps.fallback(text.slice(start));
      }
      start = end;
    }
  };
}
