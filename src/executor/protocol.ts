// What a worker sends its coordinator, whatever the transport (ADR 0026, 0037): an
// attempt began, one event of the branch, the result. JSON, parsed strictly, since
// whatever a transport delivers is untrusted input (Redis: one field `m` of the run's stream).
import { z } from "zod";
import type { BranchJobOutcome, RemoteEvent } from "../engine/ports.ts";

export type StreamMessage =
  | { kind: "attempt"; job: string; worker: string; attempt: number }
  | { kind: "event"; job: string; event: RemoteEvent }
  | { kind: "result"; job: string; outcome: BranchJobOutcome };

// Added to the run's own counts: whole numbers, none below zero.
const count = z.number().int().min(0);
const counts = z.object({ passed: count, failed: count, error: count, skipped: count, cancelled: count, self_reported: count.optional() });
// A branch's events only: a worker cannot record the run's own events in the coordinator's
// ledger (a run.finished, a dispatch), nor lower the run's spend with a negative cost.
const COORDINATOR_ONLY = new Set(["branch.dispatched", "branch.cut_off"]);
const body = z
  .object({
    type: z.string().refine((t) => !t.startsWith("run.") && !COORDINATOR_ONLY.has(t)),
    cost_usd: z.number().min(0).nullable().optional(),
  })
  .passthrough();
const messageSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("attempt"), job: z.string(), worker: z.string(), attempt: z.number().int().min(1) }),
  z.object({
    kind: z.literal("event"),
    job: z.string(),
    event: z.object({ worker: z.string(), attempt: z.number().int().min(1), seq: z.number().int().min(0), body }),
  }),
  z.object({
    kind: z.literal("result"),
    job: z.string(),
    outcome: z.object({
      worker: z.string(),
      attempt: z.number().int().min(1),
      status: z.enum(["passed", "failed", "error", "skipped", "cancelled"]),
      output: z.unknown(),
      error: z.string().nullable(),
      recovered: z.boolean().optional(),
      counts,
      costUnknown: z.number().int().min(0),
    }),
  }),
]);

export function encodeMessage(m: StreamMessage): string {
  return JSON.stringify(m);
}

/** null for anything that is not a message of ours (it is dropped, not trusted). */
export function decodeMessage(text: string): StreamMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = messageSchema.safeParse(raw);
  return parsed.success ? (parsed.data as StreamMessage) : null;
}
