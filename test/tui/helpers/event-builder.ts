// Builds event sequences with the envelope filled in (v, run, t, seq), so
// fixtures and tests read as the run they describe.
import type { EventBody, VouchEvent } from "../../../src/engine/events.ts";

export const RUN_ID = "01JDX4T7Q9M2K8V3H6N5R0B1CZ";
const START = Date.parse("2026-11-29T10:00:00.000Z");

export class RunRecorder {
  readonly events: VouchEvent[] = [];
  private ms = 0;
  constructor(readonly run = RUN_ID) {}

  /** Move the clock forward (ms) before the next event. */
  wait(ms: number): this {
    this.ms += ms;
    return this;
  }

  emit(body: EventBody): this {
    this.events.push({ v: 1, run: this.run, t: new Date(START + this.ms).toISOString(), seq: this.events.length, ...body } as VouchEvent);
    this.ms += 100;
    return this;
  }

  /** A run.started of a one-session run over `nodes`, its other fields the plainest (`extra` overrides). */
  started(nodes: { id: string; kind: string; needs?: string[] }[], extra: Record<string, unknown> = {}): this {
    return this.emit({
      type: "run.started",
      graph: "g",
      graph_path: "g.yaml",
      graph_digest: "d",
      inputs: {},
      caps: { budget_usd: null, wall_ms: null },
      concurrency: 1,
      nodes: nodes.map((n) => ({ needs: [], ...n })),
      pass_env: [],
      harness: null,
      resumed: false,
      version: "0",
      ...extra,
    } as EventBody);
  }

  ndjson(): string {
    return this.events.map((e) => JSON.stringify(e)).join("\n") + "\n";
  }
}

export const NO_TOKENS = null;

export const ZERO = { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 };

/** A node.finished body: `status` (passed by default), attempt 1, nothing else recorded but `extra`
 *  (a branch, a seal). */
export function nodeFinishedBody(node: string, extra: Record<string, unknown> = {}, status = "passed"): EventBody {
  return {
    type: "node.finished",
    node,
    attempt: 1,
    status,
    qualifier: null,
    stop_reason: null,
    cause: null,
    cost_usd: null,
    turns: null,
    wall_ms: 1,
    ...extra,
  } as EventBody;
}
