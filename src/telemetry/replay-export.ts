// `vouch export otlp RUN` (ADR 0059): a recorded run's events replayed through the same
// mapping as the live export (span-mapper.ts), so the spans, their ids and their times
// are the ones a live export of that run sent. Spans are handed over in bounded steps:
// after each QUEUE_STEP spans the queue is flushed before more are added, so a run of
// any size is sent whole within the exporter's bounded queue.
import type { VouchEvent } from "../engine/events.ts";
import type { OtlpTarget } from "./config.ts";
import { MAX_QUEUED_SPANS, openOtlpExport, type ExportTally, type SpanSink } from "./otlp-export.ts";
import { SpanMapper } from "./span-mapper.ts";
import type { TraceRoot } from "./trace-ids.ts";

const QUEUE_STEP = MAX_QUEUED_SPANS / 2;

export async function exportRecorded(
  events: Iterable<VouchEvent>,
  root: TraceRoot,
  target: OtlpTarget,
  version: string,
  sink: SpanSink = openOtlpExport(target, version),
): Promise<ExportTally> {
  const mapper = new SpanMapper(root);
  let pending = 0;
  const add = async (spans: ReturnType<SpanMapper["push"]>) => {
    sink.add(spans);
    pending += spans.length;
    if (pending >= QUEUE_STEP) {
      await sink.flush();
      pending = 0;
    }
  };
  for (const event of events) {
    await add(mapper.push(event));
    // The collector is down: the rest would wait out the same timeout, step after step.
    if (sink.failure() !== undefined) break;
  }
  if (sink.failure() === undefined) await add(mapper.finish());
  return sink.close();
}
