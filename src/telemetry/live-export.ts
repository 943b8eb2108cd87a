// A run's spans sent while it runs (ADR 0059): an output beside the UI that is pushed the
// same committed events, maps them (span-mapper.ts) and hands ended spans to the OTLP
// exporter, which sends them in the background. It never slows or breaks the run: push()
// does a little bookkeeping and never throws; a collector that is down costs one warning
// when the session ends; the last spans wait at most EXPORT_TIMEOUT_MS (+ slack) at exit.
import type { VouchEvent } from "../engine/events.ts";
import { sanitizeInline } from "../text/sanitize.ts";
import type { OtlpTarget } from "./config.ts";
import { EXPORT_TIMEOUT_MS, openOtlpExport, type ExportTally, type SpanSink } from "./otlp-export.ts";
import { SpanMapper } from "./span-mapper.ts";
import type { TraceRoot } from "./trace-ids.ts";

export { EXPORT_TIMEOUT_MS };

/** Structurally an EventOutput (src/tui/output.ts): the session tees its events into it. */
export interface TelemetryOutput {
  push(event: VouchEvent): void;
  pushMany(events: readonly VouchEvent[]): void;
  close(): Promise<void>;
}

/** The one line said about an export that did not fully arrive; null when every span did. */
export function tallyWarning(target: OtlpTarget, tally: ExportTally, mappingError?: string): string | null {
  if (mappingError !== undefined)
    return `vouch: OpenTelemetry: spans stopped after an internal error (${mappingError}); the run is not affected`;
  const missing = tally.added - tally.sent;
  if (missing <= 0) return null;
  const why = tally.error !== undefined ? `: ${sanitizeInline(tally.error).slice(0, 300)}` : " in time";
  return `vouch: OpenTelemetry: ${missing} of ${tally.added} spans were not sent to ${target.display}${why}`;
}

export function liveTelemetry(
  target: OtlpTarget,
  root: TraceRoot,
  version: string,
  warn: (line: string) => void,
  sink: SpanSink = openOtlpExport(target, version),
): TelemetryOutput {
  const mapper = new SpanMapper(root);
  let broken: string | undefined;
  const push = (event: VouchEvent) => {
    if (broken !== undefined) return;
    try {
      sink.add(mapper.push(event));
    } catch (e) {
      broken = sanitizeInline(String((e as Error)?.message ?? e)).slice(0, 200);
    }
  };
  return {
    push,
    pushMany: (events) => events.forEach(push),
    async close() {
      if (broken === undefined) {
        try {
          sink.add(mapper.finish());
        } catch (e) {
          broken = String((e as Error)?.message ?? e);
        }
      }
      const line = tallyWarning(target, await sink.close(), broken);
      if (line !== null) warn(`${line}\n`);
    },
  };
}
