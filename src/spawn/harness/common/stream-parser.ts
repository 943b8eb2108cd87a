// The one skeleton of a JSON-stream parser (ADR 0034). What every agent CLI's
// parser does the same way is here: stdout lines to JSON documents (bounded,
// garbage counted), the counters (events seen, session id, last activity, API
// retries), the progress a line changed, whether the final report is in, and
// the end — the harness's verdict, then a usage-limit reading of a crash
// (usage-limit.ts), then, for a CLI that prints raw escape sequences, an error
// with none left. A harness supplies only how it reads one event and what its
// own state says (src/spawn/harness/<name>/stream.ts).
import type { SittingProgress } from "../../../engine/ports.ts";
import type { JsonObject } from "../../../engine/json-object.ts";
import { sanitize } from "../../../text/sanitize.ts";
import type { ParsedSitting, ParserContext, StreamEnd, StreamParser } from "../types.ts";
import { JsonDocumentReader, typedEvent } from "./json-documents.ts";
import type { ResetContext } from "./reset-time.ts";
import { withUsageLimit, type LimitReading } from "./usage-limit.ts";

/** A JSON object with a string `type`: one event of a stream. */
export type StreamEvent = JsonObject & { type: string };

/** What the skeleton counts for every harness; a harness's reader sets what its events say. */
export interface StreamCounters {
  /** Events read so far (JSON objects with a string `type`). */
  eventsSeen: number;
  sessionId?: string;
  /** The last thing the model was seen doing, for the live view. */
  activity?: string;
  /** API requests the CLI said it retried. */
  apiRetries: number;
}

/** How one harness reads its stream. `S` is its own state for one sitting. */
export interface EventReader<S> {
  /** The harness, as a usage-limit error names it. */
  name: string;
  /** A fresh state for one sitting. */
  state(ctx: ParserContext | undefined): S;
  /** A JSON array holds events (claude's `--output-format json`); otherwise an array is no event. */
  arrays?: boolean;
  /** Reads one event; true when it changed the progress. */
  read(event: StreamEvent, s: S, c: StreamCounters): boolean;
  /** The turns, cost and tokens so far (a field left out when unknown), in that order. */
  numbers(s: S, c: StreamCounters): Pick<SittingProgress, "turns" | "costUsd" | "tokens">;
  /** True once the stream carried the harness's final report. Absent: never. */
  reported?(s: S): boolean;
  /** Reads what the harness records besides its stdout (StreamParser.poll); true when it changed the progress. */
  poll?(s: S, c: StreamCounters): boolean;
  /** The harness's verdict once the process has ended. `garbage` is "" or the note on lines that were not JSON. */
  decide(s: S, c: StreamCounters, end: StreamEnd, garbage: string): ParsedSitting;
  /** A usage or rate limit in what a crashed sitting said, read against `ctx`. */
  limit?(s: S, ctx: ResetContext, end: StreamEnd): LimitReading | null;
  /** The CLI colours its messages even in a pipe: no raw escape sequence of its error reaches a record. */
  sanitizeError?: boolean;
}

export function jsonStreamParser<S>(h: EventReader<S>, ctx?: ParserContext): StreamParser {
  const reader = new JsonDocumentReader();
  const s = h.state(ctx);
  const c: StreamCounters = { eventsSeen: 0, apiRetries: 0 };

  const handle = (value: unknown): boolean => {
    if (h.arrays && Array.isArray(value)) return value.map(handle).some(Boolean);
    const event = typedEvent(value);
    if (!event) return false;
    c.eventsSeen += 1;
    return h.read(event, s, c);
  };
  const progress = (): SittingProgress => ({
    ...h.numbers(s, c),
    ...(c.activity !== undefined ? { activity: c.activity } : {}),
    ...(c.apiRetries > 0 ? { apiRetries: c.apiRetries } : {}),
  });

  return {
    feed: (line) => (reader.feed(line).map(handle).some(Boolean) ? progress() : null),
    progress,
    reported: () => h.reported?.(s) ?? false,
    ...(h.poll ? { poll: () => (h.poll!(s, c) ? progress() : null) } : {}),
    finish(end: StreamEnd): ParsedSitting {
      reader.finish().forEach(handle);
      h.poll?.(s, c);
      const decided = h.decide(s, c, end, reader.garbageNote());
      const sitting = h.limit ? withUsageLimit(decided, h.name, end, (ctx) => h.limit!(s, ctx, end)) : decided;
      return h.sanitizeError && sitting.error !== undefined ? { ...sitting, error: sanitize(sitting.error) } : sitting;
    },
  };
}
