// The verdict of a `kind: merge` node (ADR 0021), a pure function of what was
// merged and what its checks said. A branch left out is reported, not a
// failure: the merge passes on the merged tree's checks. Nothing merged at all
// is a failure (merge_conflict when conflicts left everything out,
// nothing_to_merge when no upstream work passed): a merge with no work in it
// is no evidence of anything. A branch moved or deleted after its node passed
// leaves nothing out: the merge takes the commits vouch recorded (issue 27
// items 2 and 3, test/e2e/merge-branches.test.ts).
import type { Cause, EvidencePart, NodeStatus, Qualifier } from "../events.ts";
import type { CheckOutcome } from "../ports.ts";
import type { Judgement } from "../verdict/conjunction.ts";
import { stopOutcome, type RunStop } from "../verdict/stop.ts";

export interface MergedBranch {
  branch: string;
  from: string;
  /** The branch's commit that was merged. */
  commit: string;
}

export interface LeftOutBranch {
  branch: string;
  from: string;
  /** merge_conflict: it conflicts with what was merged before it; no_branch: its node made no branch. */
  reason: "merge_conflict" | "no_branch";
  paths: string[];
}

/** The merge node's output (`nodes.<id>.output`, node.finished). */
export interface MergeOutput {
  /** The new branch; absent when nothing was merged (no branch is made). */
  branch?: string;
  base: string;
  base_commit: string;
  /** The merged tree's commit (base_commit when nothing was merged). */
  commit: string;
  /** Where the merged tree was checked out for the checks (removed when the node passed). */
  worktree?: string;
  merged: MergedBranch[];
  left_out: LeftOutBranch[];
  /** Upstream work that did not pass and was not offered to the merge. */
  not_passed: string[];
  files_changed: number;
  insertions: number;
  deletions: number;
}

export interface MergeVerdict {
  status: NodeStatus;
  qualifier: Qualifier | null;
  cause: Cause | null;
  error?: string;
  evidence: EvidencePart[];
  failedChecks: CheckOutcome[];
}

/** `judged` is the checks' judgement on the merged tree; null when a stop cut them off. */
export function mergeVerdict(out: MergeOutput, judged: Judgement | null, runStop: RunStop | null): MergeVerdict {
  if (out.merged.length === 0) {
    const conflicts = out.left_out.filter((l) => l.reason === "merge_conflict");
    const cause: Cause = conflicts.length > 0 ? "merge_conflict" : "nothing_to_merge";
    const unrecorded = out.left_out.filter((l) => l.reason === "no_branch").map((l) => l.from);
    const why =
      conflicts.length > 0
        ? `nothing was merged: ${conflicts.map((c) => c.branch).join(", ")} conflict${conflicts.length === 1 ? "s" : ""} with ${out.base}`
        : unrecorded.length > 0
          ? `nothing was merged: ${unrecorded.join(", ")} passed with no commit vouch recorded (a node without a worktree has none)`
          : `nothing was merged: no upstream work passed${out.not_passed.length > 0 ? ` (${out.not_passed.join(", ")} did not)` : ""}`;
    return { status: "failed", qualifier: null, cause, error: why, evidence: [], failedChecks: [] };
  }
  if (judged === null) {
    const o = stopOutcome(runStop);
    return { status: o.status, qualifier: null, cause: o.cause, error: o.error, evidence: [], failedChecks: [] };
  }
  const v: MergeVerdict = {
    status: judged.status,
    qualifier: judged.qualifier,
    cause: judged.cause,
    evidence: judged.evidence,
    failedChecks: judged.failedChecks,
  };
  if (judged.error !== undefined) v.error = judged.error;
  return v;
}
