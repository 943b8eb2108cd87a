// What the report shows of the work itself (ADR 0071): each worktree's patch,
// read by the command line from git (src/cli/report-diffs.ts) and handed in,
// cut here to what a page can hold; and a merge node's result read back from its
// recorded output. Pure: no git, no files. Every value is treated as hostile: a
// recorded output is only trusted field by field, a patch only as text.
import type { BranchView, RunSummary } from "../ledger/types.ts";
import type { LeftOutBranch, MergedBranch } from "../read/merge-output.ts";
import { branchPath } from "../read/node-path.ts";

/** How much of the work a page shows. A generated file or a vendored folder can make a
 *  patch of megabytes, and a map of a thousand branches a thousand patches. */
export const DIFF_BOUNDS = {
  /** Most bytes of one patch the command line reads; a longer one is not shown (its stat is). */
  readBytes: 1024 * 1024,
  /** Most patches read for one page, in the page's order (top-level nodes first). */
  patches: 40,
  /** Most lines of one patch shown; the rest is counted ("N more lines"). */
  lines: 400,
  /** Most characters of one line shown (a minified file is one long line). */
  lineChars: 400,
  /** Most characters of patches one page holds, as written into it (escaped): past it, a patch
   *  shows no more lines (they are counted). 40 patches of 400 lines of 400 characters would be
   *  6.4 MB before escaping; the page stays under test/report/size.test.ts's limit. */
  pageChars: 1_000_000,
} as const;

/** One worktree's patch as the command line read it, or why it was not read. */
export type NodeDiff = { patch: string } | { unread: string };
/** The patches of a run's worktrees by node label (`integrate`, `implement_each[2].implement`). */
export type RunDiffs = ReadonlyMap<string, NodeDiff>;

export interface ShownDiff {
  lines: string[];
  /** Lines of the patch past the shown ones. */
  more: number;
  /** Shown lines that were cut at DIFF_BOUNDS.lineChars. */
  cut: number;
}

/** What is left of the page's room for patches (DIFF_BOUNDS.pageChars), spent as patches are shown. */
export interface PageBudget {
  chars: number;
}

export function pageBudget(): PageBudget {
  return { chars: DIFF_BOUNDS.pageChars };
}

/** The first `bounds.lines` lines of a patch, each at most `bounds.lineChars` characters, while
 *  `budget` lasts: each line shown spends `cost(line)` (the page passes its escaped length). */
export function boundDiff(
  patch: string,
  bounds: { lines: number; lineChars: number } = DIFF_BOUNDS,
  budget: PageBudget = { chars: Number.POSITIVE_INFINITY },
  cost: (line: string) => number = (l) => l.length,
): ShownDiff {
  const all = patch.endsWith("\n") ? patch.slice(0, -1).split("\n") : patch === "" ? [] : patch.split("\n");
  let cut = 0;
  const lines: string[] = [];
  for (const l of all.slice(0, bounds.lines)) {
    const line = l.length <= bounds.lineChars ? l : `${l.slice(0, bounds.lineChars)}… (${l.length} characters)`;
    const spent = cost(line) + 1;
    if (spent > budget.chars) break;
    budget.chars -= spent;
    if (line !== l) cut += 1;
    lines.push(line);
  }
  return { lines, more: all.length - lines.length, cut };
}

/** A merge node's result as its output recorded it (ADR 0021). */
export interface MergeResult {
  branch: string | null;
  base: string;
  base_commit: string;
  commit: string;
  merged: MergedBranch[];
  left_out: LeftOutBranch[];
  not_passed: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A field of a recorded object, only when the object itself has it (never from a prototype). */
const own = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);
const text = (v: unknown): string => (typeof v === "string" ? v : "");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `implement_each#3` (the engine's key) as the page labels it: `implement_each[3]`. */
export function fromLabel(from: string): string {
  const m = /^(.+)#(\d+)$/.exec(from);
  return m ? branchPath(m[1]!, Number(m[2])) : from;
}

/** The result of a merge node from its recorded output; null when the output is not a merge's. */
export function mergeResultOf(output: unknown): MergeResult | null {
  if (!isObject(output)) return null;
  const [mergedList, leftList] = [own(output, "merged"), own(output, "left_out")];
  if (!Array.isArray(mergedList) || !Array.isArray(leftList)) return null;
  const merged = mergedList
    .filter(isObject)
    .map((m) => ({ branch: text(own(m, "branch")), from: fromLabel(text(own(m, "from"))), commit: text(own(m, "commit")) }));
  const leftOut = leftList.filter(isObject).map((l) => ({
    branch: text(own(l, "branch")),
    from: fromLabel(text(own(l, "from"))),
    reason: text(own(l, "reason")),
    paths: list(own(l, "paths")).filter((p): p is string => typeof p === "string"),
  }));
  const branch = own(output, "branch");
  return {
    branch: typeof branch === "string" ? branch : null,
    base: text(own(output, "base")),
    base_commit: text(own(output, "base_commit")),
    commit: text(own(output, "commit")),
    merged,
    left_out: leftOut,
    not_passed: list(own(output, "not_passed"))
      .filter((p): p is string => typeof p === "string")
      .map(fromLabel),
  };
}

/** A map branch's label (its item, bounded) by `map[index]`, to say which task a branch was. */
export function branchLabels(summary: RunSummary): Map<string, string> {
  const labels = new Map<string, string>();
  for (const b of summary.branches as BranchView[]) if (b.label) labels.set(branchPath(b.map, b.index), b.label);
  return labels;
}

/** A commit id as people read it: its first 12 hex digits. */
export function shortCommit(commit: string): string {
  return commit.slice(0, 12);
}
