// Workspace rules that need no git (ADR 0020): a base that git would read as an
// option, protect globs that mean nothing, and `from` naming a node that is not
// upstream in the same scope or has no worktree. Git-dependent rules (a cwd
// outside any repository, an unknown base) are checked by the command line
// before the run starts (src/cli/workspace-check.ts).
import type { IndexedNode } from "./graph-index.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";
import { compileGlob } from "../workspace/glob.ts";
import { workspaceOf } from "../workspace/spec.ts";

export const workspaces: Rule = (ctx) => {
  for (const n of ctx.index.nodes) witnessRule(ctx, n);
  for (const n of ctx.index.nodes) {
    const node = n.node;
    if ((node?.kind !== "agent" && node?.kind !== "script") || node.workspace === undefined) continue;
    const ws = node.workspace;
    const at = [...n.path, "workspace"];
    if (ws.from !== undefined) fromRule(ctx, n, ws.from, ws.mode, ws.base);
    baseRule(ctx, [...at, "base"], ws.base);
    ws.protect?.forEach((glob, i) => globRule(ctx, [...at, "protect", i], glob));
    ws.deps?.forEach((glob, i) => globRule(ctx, [...at, "deps", i], glob, "deps"));
  }
  const d = ctx.graph.defaults?.workspace;
  baseRule(ctx, ["defaults", "workspace", "base"], d?.base);
  d?.protect?.forEach((glob, i) => globRule(ctx, ["defaults", "workspace", "protect", i], glob));
  d?.deps?.forEach((glob, i) => globRule(ctx, ["defaults", "workspace", "deps", i], glob, "deps"));
};

/** A witnessed check (ADR 0044) runs first on the base: a node in the shared folder has none. Checks
 *  from checks_from files are merged after validation; one of those is found when it runs. */
function witnessRule(ctx: ValidateContext, n: IndexedNode): void {
  const node = n.node;
  if ((node?.kind !== "agent" && node?.kind !== "script") || workspaceOf(ctx.graph, node) !== null) return;
  (node.success?.checks ?? []).forEach((ref, i) => {
    const def = typeof ref === "string" ? (Object.hasOwn(ctx.graph.checks ?? {}, ref) ? ctx.graph.checks![ref] : undefined) : ref;
    if (def?.witness === undefined) return;
    ctx.report({
      path: [...n.path, "success", "checks", i],
      message: `check "${typeof ref === "string" ? ref : ref.name}" is witnessed (witness: ${def.witness}), which runs it on the base first, and node "${n.id}" has no base: it works in the shared folder`,
      hint: `give "${n.id}" workspace: { mode: worktree }, or drop witness from the check`,
    });
  });
}

function baseRule(ctx: ValidateContext, path: (string | number)[], base: string | undefined): void {
  if (base?.startsWith("-"))
    ctx.report({ path, message: `base "${base}" starts with "-": git would read it as an option`, hint: "name a branch, tag or commit" });
}

function globRule(ctx: ValidateContext, path: (string | number)[], glob: string, field = "protect"): void {
  const g = compileGlob(glob);
  if (!g.ok)
    ctx.report({
      path,
      message: `${field} glob "${glob}" is not valid: ${g.reason}`,
      hint: 'globs are repository paths with *, ?, ** and [..], e.g. "test/**"',
    });
}

function fromRule(ctx: ValidateContext, n: IndexedNode, from: string, mode: string | undefined, base: string | undefined): void {
  const at = [...n.path, "workspace", "from"];
  if (mode !== undefined || base !== undefined) {
    ctx.report({
      path: at,
      message: "workspace.from continues another node's worktree: it takes no mode or base of its own",
      hint: "drop mode and base, or drop from",
    });
  }
  const target = ctx.index.scope(n.scope).get(from);
  const where = n.scope === null ? "the graph" : `map "${n.scope}"'s branch`;
  if (target === undefined) {
    ctx.report({
      path: at,
      message: `workspace.from names "${from}", which is not a node of ${where}`,
      hint: "from names an upstream node of the same scope that works in a worktree",
    });
    return;
  }
  if (!ctx.index.isUpstream(n, from) || from === n.id) {
    ctx.report({
      path: at,
      message: `workspace.from names "${from}", which is not upstream of "${n.id}"`,
      hint: `add "${from}" to needs (directly or through other nodes), so its work is done before this node starts`,
    });
    return;
  }
  if (target.node === undefined || workspaceOf(ctx.graph, target.node) === null) {
    ctx.report({
      path: at,
      message: `workspace.from names "${from}", which has no worktree`,
      hint: `give "${from}" workspace: { mode: worktree }`,
    });
  }
}
