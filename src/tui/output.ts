// What every output mode implements (docs/architecture.md §2, invariant 4): the TUI, the
// plain lines and NDJSON all consume the same VouchEvent stream, pushed by the
// one run loop. None of them runs anything.
import type { VouchEvent } from "../engine/events.ts";

export interface EventOutput {
  /** One event, in order, as soon as the ledger has it. Never throws for a closed consumer. */
  push(event: VouchEvent): void;
  /** Several events at once, in order, as push() would show them one by one (an output
   *  that can write them together, --json, has it). */
  pushMany?(events: readonly VouchEvent[]): void;
  /** The run is over: write what is left (the TUI's final frame) and release the terminal. */
  close(): Promise<void>;
}

/** A write failed because the reader went away (a closed pipe, a destroyed or
 *  ended stream): the output stops quietly. Any other write error is real. */
export function isClosedStream(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || code === "ERR_STREAM_WRITE_AFTER_END";
}
