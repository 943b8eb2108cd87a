// Rules of `kind: merge` nodes (ADR 0021) that need more than one field: every
// `from` names an upstream node of the graph that works in a worktree (a map:
// one with a worktree node in its branch), once; `base` and a literal `into`
// are names git takes. An unknown base is found when the run starts (it needs git).
import { addNeedHint } from "./needs-hint.ts";
import { didYouMean } from "./did-you-mean.ts";
import type { IndexedNode } from "./graph-index.ts";
import type { MergeNode } from "./schema.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";
import { workspaceOf } from "../workspace/spec.ts";
import { worktreeTips } from "./merge-from.ts";
import { branchNameProblem } from "./branch-name.ts";

export const merges: Rule = (ctx) => {
  for (const n of ctx.index.nodes) {
    if (n.node?.kind !== "merge") continue;
    const node = n.node;
    const list = typeof node.from === "string" ? [node.from] : node.from;
    const seen = new Set<string>();
    list.forEach((id, i) => {
      const path = typeof node.from === "string" ? [...n.path, "from"] : [...n.path, "from", i];
      if (seen.has(id))
        return ctx.report({ path, message: `from names "${id}" twice`, hint: "each node's work is merged once; drop the repeat" });
      seen.add(id);
      fromProblem(ctx, n, id, path);
    });
    staticNames(ctx, n, node);
  }
};

function fromProblem(ctx: ValidateContext, n: IndexedNode, id: string, path: (string | number)[]): void {
  const top = ctx.index.scope(null);
  const target = top.get(id);
  if (target === undefined) {
    ctx.report({
      path,
      message: `from names "${id}", which is not a node of the graph${didYouMean(id, ctx.index.suggester(null))}`,
      hint: "from names a map, or nodes, upstream of the merge that work in worktrees",
    });
    return;
  }
  if (!ctx.index.isUpstream(n, id)) {
    ctx.report({
      path,
      message: `from names "${id}", which is not upstream of "${n.id}"`,
      hint: addNeedHint(ctx.index, n, id, `"${n.id}"`),
    });
    return;
  }
  const node = target.node;
  if (node === undefined) return; // did not pass the schema: reported there
  if (node.kind === "map") {
    if (worktreeTips(ctx.graph, node.branch).length === 0) {
      ctx.report({
        path,
        message: `from names map "${id}", whose branch has no node with a worktree: there is nothing to merge`,
        hint: "give the branch's agent node workspace: { mode: worktree }",
      });
    }
  } else if (workspaceOf(ctx.graph, node) === null) {
    ctx.report({
      path,
      message: `from names "${id}", which has no worktree: there is nothing to merge`,
      hint: `give "${id}" workspace: { mode: worktree }`,
    });
  }
}

function staticNames(ctx: ValidateContext, n: IndexedNode, node: MergeNode): void {
  if (node.base?.startsWith("-"))
    ctx.report({
      path: [...n.path, "base"],
      message: `base "${node.base}" starts with "-": git would read it as an option`,
      hint: "name a branch, tag or commit",
    });
  if (node.into !== undefined && !node.into.includes("{{")) {
    const bad = branchNameProblem(node.into);
    if (bad)
      ctx.report({
        path: [...n.path, "into"],
        message: `into "${node.into}" ${bad}`,
        hint: 'name a new branch, e.g. "vouch/{{ run.id }}/merged"',
      });
  }
}
