// Retry decisions and the failure quoted into the next prompt (ADR 0002,
// format in ADR 0006). Pure.
import type { Cause, NodeStatus } from "../events.ts";
import { DEFAULT_RETRY_CAUSES, RETRY_CAUSES, type Retry, type RetryCause } from "../graph/schema.ts";
import type { CheckOutcome } from "../ports.ts";

export const QUOTE_LIMIT = 2000;
const TAIL_LINES = 12;

export type RetryDecision = { retry: true; backoffMs: number } | { retry: false };

/** `attempt` is the attempt that just ended (1-based). */
export function decideRetry(retry: Retry | undefined, attempt: number, status: NodeStatus, cause: Cause | null): RetryDecision {
  if (!retry || status === "passed" || status === "cancelled" || cause === null) return { retry: false };
  // run_budget, run_wall, cancelled, template_error ... are outside the closed set: never retried.
  if (!(RETRY_CAUSES as readonly string[]).includes(cause)) return { retry: false };
  const on: readonly RetryCause[] = retry.on ?? DEFAULT_RETRY_CAUSES;
  if (!on.includes(cause as RetryCause)) return { retry: false };
  if (attempt > retry.max) return { retry: false };
  return { retry: true, backoffMs: retry.backoff ?? 0 };
}

export function lastLines(text: string, n: number): string {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.slice(-n).join("\n");
}

/** Cut to `limit` characters, keeping the start (cause and error come first). */
export function bound(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const marker = "\n[... cut to fit ...]";
  return text.slice(0, Math.max(0, limit - marker.length)) + marker;
}

export interface FailureToQuote {
  cause: Cause | null;
  error?: string;
  failedChecks: CheckOutcome[];
}

function failureBody(f: FailureToQuote): string[] {
  const lines = [`cause: ${f.cause ?? "unknown"}`];
  if (f.error) lines.push(`error: ${f.error}`);
  if (f.failedChecks.length > 0) {
    lines.push("failed checks:");
    for (const c of f.failedChecks) {
      const how = c.timedOut ? "timed out" : (c.reason ?? (c.exit === null ? `signal ${c.signal ?? "?"}` : `exit ${c.exit}`));
      lines.push(`- ${c.name}: ${how}`);
      const tail = lastLines([c.stdoutTail, c.stderrTail].filter((t) => t.trim() !== "").join("\n"), TAIL_LINES);
      if (tail !== "") lines.push(...tail.split("\n").map((l) => `    ${l}`));
    }
  }
  return lines;
}

/** Appended to the next attempt's prompt. */
export function quoteFailure(attempt: number, f: FailureToQuote, limit = QUOTE_LIMIT): string {
  const text = [
    `Your previous attempt (attempt ${attempt}) did not pass. vouch checked it and found:`,
    ...failureBody(f),
    "Fix this and answer again.",
  ].join("\n");
  return bound(text, limit);
}

/** Appended to the prompt of a feedback loop's head: what the node downstream said. */
export function quoteFeedback(
  from: string,
  round: number,
  f: FailureToQuote & { status: NodeStatus; output?: unknown },
  limit = QUOTE_LIMIT,
): string {
  const head = `Feedback from ${from} after round ${round} (status ${f.status}):`;
  const body =
    f.status === "passed" ? [`output: ${typeof f.output === "string" ? f.output : JSON.stringify(f.output ?? null)}`] : failureBody(f);
  return bound([head, ...body, "Take this into account and answer again."].join("\n"), limit);
}

export function withQuote(prompt: string, quote: string | undefined): string {
  return quote ? `${prompt}\n\n---\n${quote}` : prompt;
}
