// What a worker sends its coordinator, whatever the transport (ADR 0026, 0037): an
// attempt began, one event of the branch, the result, or that an attempt's result was
// refused (it no longer held the job, ADR 0046). JSON, parsed strictly, since whatever a
// transport delivers is untrusted input; and sealed with the fleet key's MAC over the run
// and the text (ADR 0045): a message that does not verify is dropped unread (Redis: the
// fields `m` and `h` of the run's stream).
import { z } from "zod";
import type { NodeStatus } from "../engine/events.ts";
import type { BranchJobOutcome, RemoteEvent } from "../engine/ports.ts";
import type { FleetKey } from "./fleet-key.ts";

export type StreamMessage =
  | { kind: "attempt"; job: string; worker: string; attempt: number }
  | { kind: "event"; job: string; event: RemoteEvent }
  | { kind: "result"; job: string; outcome: BranchJobOutcome }
  | { kind: "refused"; job: string; worker: string; attempt: number; status: NodeStatus; reason: string };

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
const status = z.enum(["passed", "failed", "error", "skipped", "cancelled"]);
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
      status,
      output: z.unknown(),
      error: z.string().nullable(),
      recovered: z.boolean().optional(),
      counts,
      costUnknown: z.number().int().min(0),
    }),
  }),
  z.object({
    kind: z.literal("refused"),
    job: z.string(),
    worker: z.string(),
    attempt: z.number().int().min(1),
    status,
    reason: z.string().max(500),
  }),
]);

/** A message as it travels: its text and the MAC over the run and the text. */
export interface SealedMessage {
  text: string;
  mac: string;
}

export function encodeMessage(m: StreamMessage): string {
  return JSON.stringify(m);
}

export function sealMessage(runId: string, m: StreamMessage, key: FleetKey): SealedMessage {
  const text = encodeMessage(m);
  return { text, mac: key.mac("message", runId, text) };
}

/** The message, when `mac` verifies it as one of `runId`'s; null for anything else (dropped, not trusted). */
export function openMessage(runId: string, text: string, mac: unknown, key: FleetKey): StreamMessage | null {
  return key.verify(mac, "message", runId, text) ? decodeMessage(text) : null;
}

/** The message `text` holds, or null (it is dropped). Not a check of who sent it: see openMessage. */
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
