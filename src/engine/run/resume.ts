// What a resumed run keeps, derived from the run's own events (ADR 0002
// "Resume"): the last node.finished of each node decides; passed ones keep
// their output, unless the node had started again since (a feedback round).
// Passed branches are kept whole.
import { branchKey, nodeKey, type VouchEvent } from "../events.ts";
import type { KeptBranch, KeptNode, RemoteResume, ResumeState } from "./types.ts";

export function priorFromEvents(events: readonly VouchEvent[]): ResumeState {
  const lastNode = new Map<string, Extract<VouchEvent, { type: "node.finished" }>>();
  // A node started again after its last node.finished (a feedback loop's next round)
  // was replacing that result when the session died: the result is not final.
  const restarted = new Set<string>();
  const lastBranch = new Map<string, Extract<VouchEvent, { type: "branch.finished" }>>();
  const items = new Map<string, unknown>();
  let lastSeq = -1;
  // The last total each session's harness reported, whatever became of its node: a
  // resumed run's next sitting in that session subtracts it (ADR 0023).
  const sessionCosts: Record<string, number> = Object.create(null) as Record<string, number>;
  const remote: RemoteResume = {
    dispatches: Object.create(null) as RemoteResume["dispatches"],
    seen: Object.create(null) as RemoteResume["seen"],
  };
  for (const e of events) {
    if (e.seq > lastSeq) lastSeq = e.seq;
    noteRemote(remote, e);
    if ((e.type === "node.finished" || e.type === "node.limited") && e.session_id !== undefined) {
      const total = e.session_cost_usd ?? e.cost_usd; // absent when it equals cost_usd
      if (total !== null) sessionCosts[e.session_id] = total;
    }
    if (e.type === "node.finished") {
      lastNode.set(nodeKey(e.node, e.branch), e);
      restarted.delete(nodeKey(e.node, e.branch));
    } else if (e.type === "node.started") restarted.add(nodeKey(e.node, e.branch));
    else if (e.type === "branch.finished") lastBranch.set(branchKey(e.branch.map, e.branch.index), e);
    else if (e.type === "branch.started") items.set(branchKey(e.branch.map, e.branch.index), e.item);
  }
  const nodes: Record<string, KeptNode> = Object.create(null) as Record<string, KeptNode>;
  const recovered: string[] = [];
  for (const [key, e] of lastNode) {
    if (e.status !== "passed" && e.recovered === true) recovered.push(key);
    if (e.status !== "passed" || restarted.has(key)) continue;
    const kept: KeptNode = { qualifier: e.qualifier };
    if (e.output !== undefined) kept.output = e.output;
    if (e.workspace !== undefined) kept.workspace = e.workspace;
    if (e.session_id !== undefined) kept.sessionId = e.session_id;
    const total = e.session_cost_usd ?? e.cost_usd; // absent when it equals cost_usd
    if (e.session_id !== undefined && total !== null) kept.sessionCostUsd = total;
    nodes[key] = kept;
  }
  const branches: Record<string, KeptBranch> = Object.create(null) as Record<string, KeptBranch>;
  for (const [key, e] of lastBranch) {
    if (e.status !== "passed") continue;
    const kept: KeptBranch = { item: items.get(key), verdict: e.verdict };
    if (e.output !== undefined) kept.output = e.output;
    branches[key] = kept;
  }
  return { startSeq: lastSeq + 1, nodes, branches, recovered, sessionCosts, remote };
}

/** Dispatches and the worker events already recorded: a resumed coordinator
 *  re-attaches to unfinished jobs and drops the events it has (ADR 0026). */
function noteRemote(remote: RemoteResume, e: VouchEvent): void {
  if (e.type === "branch.dispatched") {
    remote.dispatches[branchKey(e.branch.map, e.branch.index)] = { dispatch: e.dispatch, job: e.job, finished: false };
  } else if (e.type === "branch.finished") {
    const d = remote.dispatches[branchKey(e.branch.map, e.branch.index)];
    if (d) d.finished = true;
  }
  const branch = "branch" in e ? e.branch : undefined;
  if (e.remote && branch)
    (remote.seen[branchKey(branch.map, branch.index)] ??= []).push(`${e.remote.job}:${e.remote.attempt}:${e.remote.seq}`);
  // The attempts already recorded: a resumed coordinator does not cut off one twice.
  const job = e.type === "branch.cut_off" ? e.job : e.remote?.job;
  if (job === undefined) return;
  const a = ((remote.attempts ??= Object.create(null) as NonNullable<RemoteResume["attempts"]>)[job] ??= { last: null, cutOff: [] });
  if (e.type === "branch.cut_off") a.cutOff.push(e.attempt);
  else if (e.remote && (a.last === null || e.remote.attempt > a.last.attempt))
    a.last = { attempt: e.remote.attempt, worker: e.remote.worker };
}
