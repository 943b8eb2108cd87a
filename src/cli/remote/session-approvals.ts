// The Approvals port of a session (ADR 0062). In order: a decision the ledger's
// events hold (final), a decision recorded in the requests table (`vouch
// approve` while the run waited, or before a resume), a --approve/--reject
// flag, then a person: the live view and `vouch approve` from anywhere, the
// first to answer wins — or, headless without --wait-approvals, "pause" (exit 4).
// Every decision taken here is claimed in the requests table, so a decision
// made in two places at once is stored, and applied, exactly once.
import { nodeKey } from "../../engine/events.ts";
import type { ApprovalAnswer, ApprovalRequest, ApprovalVerdict, Approvals } from "../../engine/ports.ts";
import type { Decision } from "../../engine/run/decisions.ts";
import type { DecisionRequest, Requester, RequestVia, RunRequests } from "../../ledger/index.ts";
import type { RequestWatch } from "./request-watch.ts";
import { byLine } from "./requester.ts";

export interface SessionApprovalsSpec {
  runId: string;
  me: Requester;
  /** Absent when the run is not recorded (VOUCH_LEDGER=off): no table to claim in or wait on. */
  requests?: RunRequests;
  watch?: RequestWatch;
  /** --approve / --reject (by node id). */
  flags: ReadonlyMap<string, Decision>;
  /** Decisions the ledger's events hold (by nodeKey): final. */
  standing: ReadonlyMap<string, Decision>;
  /** The live view's queue, when there is one. */
  ask?: Approvals;
  /** --wait-approvals: headless, wait for a decision recorded from elsewhere instead of pausing. */
  waitRemote: boolean;
  /** A person is being asked now (notifications: an approval waits). */
  onAsk?(request: ApprovalRequest): void;
}

export function verdictOf(r: DecisionRequest): ApprovalVerdict {
  return { decision: r.decision, by: byLine(r), ...(r.note !== undefined ? { note: r.note } : {}) };
}

export function sessionApprovals(spec: SessionApprovalsSpec): Approvals {
  const round = (r: ApprovalRequest) => r.round ?? 1;
  /** Store d as this instance's decision unless one is stored: the one stored wins. */
  const claim = (r: ApprovalRequest, decision: Decision, via: RequestVia): ApprovalAnswer => {
    if (!spec.requests) return decision;
    const at = new Date().toISOString();
    const ask = { node: r.node, round: round(r), decision, via, by: spec.me, at, ...(r.branch ? { branch: r.branch } : {}) };
    return verdictOf(spec.requests.decide(spec.runId, ask).request);
  };
  return {
    async decide(r, signal) {
      const standing = spec.standing.get(nodeKey(r.node, r.branch));
      if (standing) return standing;
      const recorded = spec.requests?.decisionFor(spec.runId, r.node, r.branch, round(r));
      if (recorded) return verdictOf(recorded);
      const flag = spec.flags.get(r.node);
      if (flag) return claim(r, flag, "flag");
      if (!spec.ask && !(spec.waitRemote && spec.watch)) return "pause";
      spec.onAsk?.(r);
      return askPerson(spec, r, signal, (d) => claim(r, d, "tui"));
    },
  };
}

/** The live view and the requests table, raced; the loser is withdrawn. */
async function askPerson(
  spec: SessionApprovalsSpec,
  r: ApprovalRequest,
  signal: AbortSignal,
  claimLocal: (d: Decision) => ApprovalAnswer,
): Promise<ApprovalAnswer> {
  const both = new AbortController();
  const onAbort = () => both.abort(signal.reason);
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  const asked: Promise<ApprovalAnswer>[] = [];
  if (spec.ask) asked.push(spec.ask.decide(r, both.signal).then((d) => (d === "pause" || typeof d !== "string" ? d : claimLocal(d))));
  if (spec.watch) asked.push(spec.watch.decision(r.node, r.branch, r.round ?? 1, both.signal).then(verdictOf));
  try {
    return await Promise.race(asked);
  } finally {
    signal.removeEventListener("abort", onAbort);
    // The other asker gives up its request (the live view takes the question off screen).
    for (const p of asked) p.catch(() => {});
    both.abort(new Error("decided"));
  }
}
