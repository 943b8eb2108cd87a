// Tracing for one session of a run (ADR 0059): off unless an OTLP endpoint is set, and then
// loaded on demand, so a run without one loads no OpenTelemetry module and sends nothing.
import type { RunOptions } from "../engine/run.ts";
import type { VouchEvent } from "../engine/events.ts";
import { telemetryChoice } from "../telemetry/config.ts";
import type { SessionTracing } from "../telemetry/session.ts";
import type { EventOutput } from "../tui/output.ts";
import type { CliIO } from "./io.ts";

export async function openTracing(io: CliIO, options: Omit<RunOptions, "ports" | "signal">): Promise<SessionTracing | null> {
  const choice = telemetryChoice(io.env);
  if (choice.kind === "refused") io.err(`vouch: OpenTelemetry: ${choice.warning}\n`);
  if (choice.kind !== "on") return null;
  const { startTracing } = await import("../telemetry/session.ts");
  return startTracing({
    target: choice.target,
    runId: options.runId,
    startSeq: options.resume?.startSeq ?? 0,
    env: io.env,
    version: options.version,
    warn: io.err,
  });
}

/** The session's output and the tracing beside it: each event to both, in order; closing
 *  closes the output first (the live UI lets the terminal go), then sends the last spans. */
export function withTracing(output: EventOutput, tracing: SessionTracing | null): EventOutput {
  if (tracing === null) return output;
  const many = output.pushMany?.bind(output);
  return {
    push(event: VouchEvent) {
      output.push(event);
      tracing.output.push(event);
    },
    ...(many
      ? {
          pushMany(events: readonly VouchEvent[]) {
            many(events);
            tracing.output.pushMany(events);
          },
        }
      : {}),
    async close() {
      try {
        await output.close();
      } finally {
        await tracing.output.close();
      }
    },
  };
}
