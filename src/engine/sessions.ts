// Sittings that continue a session (ADR 0023): which harness can resume or fork
// one, what a session id must look like before it goes near a command line, and
// which session an attempt continues (what each harness can do is SESSION_SUPPORT,
// src/engine/harnesses.ts). Pure; no zod, so src/spawn may import it.
import { SESSION_SUPPORT, type HarnessName, type SessionMode } from "./harnesses.ts";

export type { SessionMode };

/** The harnesses that can do `mode` (named in refusals); replay is left out, it only plays recordings. */
export function harnessesThatCan(mode: SessionMode): string[] {
  return (Object.keys(SESSION_SUPPORT) as HarnessName[]).filter((h) => h !== "replay" && SESSION_SUPPORT[h][mode]);
}

/** Why `harness` cannot `mode` a session, or null when it can. */
export function sessionRefusal(harness: HarnessName, mode: SessionMode, field: string): string | null {
  if (SESSION_SUPPORT[harness]?.[mode] !== false) return null;
  const others = harnessesThatCan(mode).join(", ");
  if (harness === "command")
    return `${field}: the command harness runs a program that has no sessions to ${mode === "fork" ? "fork" : "continue"}; remove ${field.startsWith("retry") ? "retry.session" : "session"} or choose a harness that can (${others})`;
  return `${field}: ${harness} cannot ${mode === "fork" ? "fork a session (its CLI has no fork)" : "resume a session"}; ${mode === "fork" ? "use session: { continue: NODE } or " : ""}choose a harness that can (${others})`;
}

/** A session id as the CLIs print them (UUIDs, thread ids). Anything else — a
 *  leading "-", an escape sequence, a path — came from output vouch does not
 *  trust and is never handed to a CLI (ADR 0019). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function usableSessionId(id: string | null | undefined): id is string {
  return typeof id === "string" && SESSION_ID_PATTERN.test(id);
}

/** A session an attempt can continue: the id, and what the harness reported as
 *  the session's total cost so far (claude's total_cost_usd counts a resumed
 *  session's earlier sittings; the next sitting's own cost is its total minus this). */
export interface KnownSession {
  id: string;
  costUsd?: number;
}

/** What an attempt continues: a session, or why it starts fresh / cannot start. */
export type SessionChoice =
  | { kind: "none" }
  | { kind: "session"; mode: SessionMode; session: KnownSession; from: { node: string; attempt?: number }; quoteOnly: boolean }
  | { kind: "fresh"; note: string; from: { node: string; attempt?: number } }
  | { kind: "missing"; error: string };

export interface SessionAsk {
  /** The node asking (a retry continues its own session). */
  self: string;
  /** The node's `session:` (continue or fork a node upstream). */
  node?: { mode: SessionMode; target: string };
  /** retry.session: continue. */
  retryContinues: boolean;
  attempt: number;
  /** The failed attempt before this one (attempt > 1). */
  previous?: { attempt: number; sessionId?: string; sessionCostUsd?: number };
  /** The last known session of the target node: undefined = it never finished, null = it reported none. */
  target?: { sessionId: string | null; sessionCostUsd?: number; status: string } | undefined;
}

/** Pure: which session attempt `attempt` continues. A retry with session: continue
 *  resumes the failed attempt's own session with only the failure quoted; when that
 *  attempt has no usable id (it crashed before the harness said one) the retry is a
 *  fresh sitting with the whole prompt, and a note. `session:` on the node continues
 *  or forks the target's last session; a target without one is an error (the author
 *  asked for its context and a fresh sitting would quietly lack it). */
export function chooseSession(ask: SessionAsk): SessionChoice {
  const prev = ask.previous;
  if (ask.retryContinues && ask.attempt > 1 && prev) {
    const from = { node: ask.self, attempt: prev.attempt };
    if (usableSessionId(prev.sessionId)) {
      const session: KnownSession = { id: prev.sessionId, ...(prev.sessionCostUsd !== undefined ? { costUsd: prev.sessionCostUsd } : {}) };
      return { kind: "session", mode: "resume", session, from, quoteOnly: true };
    }
    const why = prev.sessionId === undefined ? "reported no session id" : "reported a session id vouch does not pass to a CLI";
    if (!ask.node)
      return { kind: "fresh", note: `attempt ${prev.attempt} ${why}: this retry is a fresh sitting with the whole prompt`, from };
  }
  if (!ask.node) return { kind: "none" };
  const { mode, target } = ask.node;
  const field = `session.${mode === "resume" ? "continue" : "fork"}`;
  const t = ask.target;
  if (t === undefined)
    return {
      kind: "missing",
      error: `${field}: node "${target}" has not finished in this run, so it has no session to ${mode === "resume" ? "continue" : "fork"}`,
    };
  if (!usableSessionId(t.sessionId)) {
    const why =
      t.sessionId === null
        ? "reported no session id (its sitting ended before the harness said one)"
        : "reported a session id vouch does not pass to a CLI";
    return {
      kind: "missing",
      error: `${field}: node "${target}" (${t.status}) ${why}; nothing to ${mode === "resume" ? "continue" : "fork"}: run it again, or remove session: for a fresh sitting`,
    };
  }
  const session: KnownSession = { id: t.sessionId, ...(t.sessionCostUsd !== undefined ? { costUsd: t.sessionCostUsd } : {}) };
  return { kind: "session", mode, session, from: { node: target }, quoteOnly: false };
}
