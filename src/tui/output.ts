// What every output mode implements (docs/architecture.md §2, invariant 4): the TUI, the
// plain lines and NDJSON all consume the same VouchEvent stream, pushed by the
// one run loop. None of them runs anything.
import type { VouchEvent } from "../engine/events.ts";

export interface EventOutput {
  /** One event, in order, as soon as the ledger has it. Never throws for a closed consumer. */
  push(event: VouchEvent): void;
  /** The run is over: write what is left (the TUI's final frame) and release the terminal. */
  close(): Promise<void>;
}
