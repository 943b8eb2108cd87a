// What a session that exports traces adds (ADR 0059), loaded by src/cli/session-telemetry.ts
// only when an endpoint is set: the output that sends the spans, and the runners that
// hand each child its TRACEPARENT.
import type { AgentRunner, CommandRunner } from "../engine/ports.ts";
import { childTrace } from "./child-trace.ts";
import type { OtlpTarget } from "./config.ts";
import { liveTelemetry, type TelemetryOutput } from "./live-export.ts";
import { traceRoot } from "./trace-ids.ts";
import { tracedAgents, tracedCommands } from "./traced-ports.ts";

export interface SessionTracing {
  output: TelemetryOutput;
  commands<R extends CommandRunner & { close(): Promise<void> }>(runner: R): R;
  agents(runner: AgentRunner): AgentRunner;
}

export interface TracingSpec {
  target: OtlpTarget;
  runId: string;
  /** The seq the session's run.started gets: 0 for a new run, the resume's startSeq. */
  startSeq: number;
  env: Record<string, string | undefined>;
  version: string;
  warn: (line: string) => void;
}

export function startTracing(spec: TracingSpec): SessionTracing {
  const root = traceRoot(spec.runId, spec.env);
  const trace = childTrace(root, spec.startSeq);
  return {
    output: liveTelemetry(spec.target, root, spec.version, spec.warn),
    commands: (runner) => tracedCommands(runner, trace),
    agents: (runner) => tracedAgents(runner, trace),
  };
}
