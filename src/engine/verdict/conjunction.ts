// The success conjunction of agent and script nodes (ADR 0002), as pure
// functions: stop → exit_zero → output contract → result_matches → checks.
// The first failing part names the cause; later parts are `not_checked`.
import type { Cause, EvidencePart, NodeStatus, Qualifier, StopReason } from "../events.ts";
import type { CheckOutcome, TerminationReason } from "../ports.ts";
import { extractJson, stdoutObject } from "./json-extract.ts";
import { TOO_DEEP, valueTooDeep } from "../json-depth.ts";
import type { SchemaCheck } from "./output-schema.ts";
import { stopOutcome, type RunStop } from "./stop.ts";

export interface Judgement {
  status: NodeStatus;
  qualifier: Qualifier | null;
  cause: Cause | null;
  /** One line on why it did not pass. */
  error?: string;
  evidence: EvidencePart[];
  output?: unknown;
  failedChecks: CheckOutcome[];
}

export interface Parts {
  exitZero: boolean;
  /** `format: json`, or a schema, or a stamp: the output is judged. */
  outputJudged: boolean;
  resultMatches: boolean;
  checks: number;
}

function part(p: EvidencePart["part"], applies: boolean, outcome: "passed" | "failed" | "not_checked", detail?: string): EvidencePart {
  const e: EvidencePart = { part: p, outcome: applies ? outcome : "not_applicable" };
  if (detail !== undefined && applies) e.detail = detail;
  return e;
}

function allNotChecked(parts: Parts): EvidencePart[] {
  return [
    part("exit_zero", parts.exitZero, "not_checked"),
    part("output", parts.outputJudged, "not_checked"),
    part("result_matches", parts.resultMatches, "not_checked"),
    part("checks", parts.checks > 0, "not_checked"),
  ];
}

const CAP_STOPS: ReadonlySet<string> = new Set(["turns", "budget", "wall", "idle"]);

/** Step 1: only a completed sitting (an exited script) is judged further. */
export function judgeStop(
  kind: "agent" | "script",
  stop: StopReason | TerminationReason,
  parts: Parts,
  detail: string | undefined,
  runStop: RunStop | null,
): Judgement | null {
  if (stop === "complete" || stop === "exit") return null;
  const base = { qualifier: null, evidence: allNotChecked(parts), failedChecks: [] };
  const suffix = detail ? `: ${detail}` : "";
  if (stop === "cancelled") return { ...base, ...stopOutcome(runStop, detail) };
  if (CAP_STOPS.has(stop)) {
    // A script crossing its timeout is `timeout`; an agent crossing a cap is `cap_stop`.
    if (kind === "script")
      return { ...base, status: "error", cause: "timeout", error: `the script crossed its ${stop === "wall" ? "timeout" : "idle limit"}` };
    const which = stop === "budget" ? "budget_usd" : stop;
    return { ...base, status: "error", cause: "cap_stop", error: `the sitting stopped at its ${which} cap${suffix}` };
  }
  // The harness ended the sitting by its own decision (gemini's loop detection):
  // whatever it printed after is no answer to judge (ADR 0018).
  if (stop === "loop")
    return { ...base, status: "error", cause: "harness_error", error: `the harness stopped itself: it detected a loop${suffix}` };
  if (stop === "unavailable") return { ...base, status: "error", cause: "unavailable", error: `the harness is unavailable${suffix}` };
  if (stop === "spawn_failed") return { ...base, status: "error", cause: "harness_error", error: `the command could not start${suffix}` };
  return { ...base, status: "error", cause: "harness_error", error: `the harness stopped: ${stop}${suffix}` };
}

/** A completed attempt changed protected paths (ADR 0020): failed, and nothing it produced
 *  is judged further (its checks would have run on edited tests). */
export function judgeTampered(parts: Parts, paths: readonly string[]): Judgement {
  const shown = paths.slice(0, 20).join(", ") + (paths.length > 20 ? `, and ${paths.length - 20} more` : "");
  return {
    status: "failed",
    qualifier: null,
    cause: "tampered",
    error: `the attempt changed protected paths: ${shown} (they were put back as they are in the base; leave them as they are)`,
    evidence: allNotChecked(parts),
    failedChecks: [],
  };
}

export interface OutputInput {
  parts: Parts;
  exitCode: number | null;
  /** The agent's result text or the script's stdout. */
  text: string;
  structured?: unknown;
  format?: "text" | "json";
  isScript: boolean;
  /** The script's stdout was cut (kept tail only): JSON cannot be trusted. */
  truncated?: boolean;
  schema?: SchemaCheck;
  /** Stamp values, already rendered from the item. */
  stamp?: Record<string, unknown>;
  resultMatches?: RegExp;
}

export type BeforeChecks =
  | { ok: true; output: unknown; evidence: EvidencePart[]; selfReported: boolean }
  | { ok: false; judgement: Judgement };

function fail(cause: Cause, error: string, evidence: EvidencePart[], output?: unknown): BeforeChecks {
  const j: Judgement = { status: "failed", qualifier: null, cause, error, evidence, failedChecks: [] };
  if (output !== undefined) j.output = output;
  return { ok: false, judgement: j };
}

function readOutput(input: OutputInput): { ok: true; value: unknown } | { ok: false; message: string; unreadable?: true } {
  if (input.format === "json") {
    if (input.structured !== undefined) {
      if (valueTooDeep(input.structured)) return { ok: false, message: `output is not usable JSON: the structured output is ${TOO_DEEP}` };
      return { ok: true, value: input.structured };
    }
    if (input.truncated)
      return { ok: false, unreadable: true, message: "the output was longer than vouch keeps, so it cannot be read as JSON" };
    const r = extractJson(input.text);
    return r.ok ? r : { ok: false, message: `output is not JSON: ${r.message}` };
  }
  if (input.isScript) return { ok: true, value: stdoutObject(input.text) ?? input.text };
  return { ok: true, value: input.text };
}

/** Steps 2–4. */
export function judgeBeforeChecks(input: OutputInput): BeforeChecks {
  const { parts } = input;
  const evidence: EvidencePart[] = [];
  if (parts.exitZero && input.exitCode !== null && input.exitCode !== 0) {
    evidence.push(part("exit_zero", true, "failed", `exit ${input.exitCode}`));
    evidence.push(...allNotChecked(parts).slice(1));
    return fail("nonzero_exit", `exited with status ${input.exitCode}`, evidence);
  }
  evidence.push(part("exit_zero", parts.exitZero, "passed"));

  const read = readOutput(input);
  if (!read.ok && read.unreadable) {
    // vouch could not keep the output: no verdict on it was reached (docs/architecture.md §5: output unreadable is an error).
    evidence.push(part("output", true, "not_checked", read.message), ...allNotChecked(parts).slice(2));
    return {
      ok: false,
      judgement: { status: "error", qualifier: null, cause: "harness_error", error: read.message, evidence, failedChecks: [] },
    };
  }
  if (!read.ok) {
    evidence.push(part("output", true, "failed", read.message), ...allNotChecked(parts).slice(2));
    return fail("output_invalid", read.message, evidence);
  }
  let output = read.value;
  if (input.stamp && Object.keys(input.stamp).length > 0) {
    if (output === null || typeof output !== "object" || Array.isArray(output)) {
      const message = "stamp needs a JSON object output";
      evidence.push(part("output", true, "failed", message), ...allNotChecked(parts).slice(2));
      return fail("output_invalid", message, evidence);
    }
    output = { ...(output as Record<string, unknown>), ...input.stamp };
  }
  if (input.schema) {
    const problem = input.schema(output);
    if (problem !== null) {
      const message = `output does not match the schema: ${problem}`;
      evidence.push(part("output", true, "failed", message), ...allNotChecked(parts).slice(2));
      return fail("output_invalid", message, evidence);
    }
  }
  evidence.push(part("output", parts.outputJudged, "passed"));

  let selfReported = false;
  if (input.resultMatches) {
    if (!input.resultMatches.test(input.text)) {
      evidence.push(
        part("result_matches", true, "failed", `no match for /${input.resultMatches.source}/`),
        ...allNotChecked(parts).slice(3),
      );
      return fail("result_mismatch", `the result does not match /${input.resultMatches.source}/`, evidence, output);
    }
    selfReported = true;
    evidence.push(part("result_matches", true, "passed", "self-reported"));
  } else evidence.push(part("result_matches", false, "passed"));
  return { ok: true, output, evidence, selfReported };
}

function checkLine(c: CheckOutcome): string {
  if (c.timedOut) return `${c.name} (timed out)`;
  if (c.reason) return `${c.name} (${c.reason})`;
  return `${c.name} (${c.exit === null ? `signal ${c.signal ?? "?"}` : `exit ${c.exit}`})`;
}

/** Step 5: all checks ran; every failure is attached. */
export function judgeChecks(before: Extract<BeforeChecks, { ok: true }>, outcomes: CheckOutcome[]): Judgement {
  const failedChecks = outcomes.filter((c) => !c.passed);
  const evidence = [...before.evidence];
  if (outcomes.length === 0) {
    evidence.push(part("checks", false, "passed"));
    return {
      status: "passed",
      qualifier: before.selfReported ? "self-reported" : "exit-only",
      cause: null,
      evidence,
      output: before.output,
      failedChecks,
    };
  }
  if (failedChecks.length === 0) {
    evidence.push(part("checks", true, "passed", `${outcomes.length} passed`));
    return { status: "passed", qualifier: "verified", cause: null, evidence, output: before.output, failedChecks };
  }
  // A check that could not run is no evidence: unless another check ran and
  // failed (the evidence already says no), the node reached no verdict.
  if (failedChecks.every((c) => c.notRun)) {
    const list = failedChecks.map(checkLine).join(", ");
    const error = `${failedChecks.length} of ${outcomes.length} check${outcomes.length === 1 ? "" : "s"} could not run: ${list}`;
    evidence.push(part("checks", true, "not_checked", error));
    return { status: "error", qualifier: null, cause: "harness_error", error, evidence, output: before.output, failedChecks };
  }
  const list = failedChecks.map(checkLine).join(", ");
  evidence.push(part("checks", true, "failed", `${failedChecks.length} of ${outcomes.length} failed: ${list}`));
  return {
    status: "failed",
    qualifier: null,
    cause: "check_failed",
    error: `${failedChecks.length} of ${outcomes.length} check${outcomes.length === 1 ? "" : "s"} failed: ${list}`,
    evidence,
    output: before.output,
    failedChecks,
  };
}
