// Whose branch a merge node's `into` names (issue 27): vouch renames or moves
// only a branch this run's merge node made itself, in an earlier try. Pure: the
// merge node asks git whether the branch exists and what its tip commit says,
// and this decides. A planned graph's merge writes only under vouch/<run>/.
import { BRANCH_PREFIX } from "./names.ts";

/** The message of the merge commit a merge node makes for one branch: it names run, node and branch. */
export function mergeMessage(runId: string, node: string, branch: string): string {
  return `${mergeSubjectStart(runId, node)}${branch}`;
}

function mergeSubjectStart(runId: string, node: string): string {
  return `vouch: run ${runId}, node ${node}, merge `;
}

/** This run's own branch namespace, vouch/<run>/. */
export function runBranchPrefix(runId: string): string {
  return `${BRANCH_PREFIX}/${runId}/`;
}

export interface IntoFacts {
  into: string;
  runId: string;
  /** The merge node's id as its commits name it. */
  node: string;
  planned: boolean;
  /** The subject of the tip commit of the branch `into` names; null when there is no such branch. */
  tipSubject: string | null;
}

/** Why the merge may not write `into`, or null. Decided before any git write. */
export function intoRefusal(f: IntoFacts): string | null {
  if (f.planned && !f.into.startsWith(runBranchPrefix(f.runId)))
    return `into "${f.into}" is outside ${runBranchPrefix(f.runId)}: a planned graph's merge writes only branches of its own run`;
  if (f.tipSubject === null || f.tipSubject.startsWith(mergeSubjectStart(f.runId, f.node))) return null;
  return `into "${f.into}" names a branch this run did not make: vouch never renames or moves a branch it did not make`;
}

/** Why a planned graph's `into` (as written) is refused at load, or null: it must start vouch/{{ run.id }}/. */
export function plannedIntoProblem(into: string): string | null {
  return /^vouch\/\{\{\s*run\.id\s*\}\}\/[^/]/.test(into)
    ? null
    : 'it must start with "vouch/{{ run.id }}/": a planned graph\'s merge writes only branches of its own run';
}
