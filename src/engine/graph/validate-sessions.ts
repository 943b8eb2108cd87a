// Rules for sittings that continue a session (ADR 0023): `session:` names one
// upstream agent node on the same harness and cwd, a harness that can do it,
// no two sittings resume one session at once; `retry.session: continue` only
// where the harness can resume. The harness is the one the file names (a
// `--harness` override is checked again by the run's plan, src/spawn refuse()).
import { addNeedHint } from "./needs-hint.ts";
import type { HarnessName } from "../ports.ts";
import { sessionRefusal, type SessionMode } from "../sessions.ts";
import type { IndexedNode } from "./graph-index.ts";
import { DEFAULT_HARNESS } from "./schema-constants.ts";
import type { AgentNode } from "./schema.ts";
import { workspaceOf } from "../workspace/spec.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";

const harnessOf = (ctx: ValidateContext, n: AgentNode): HarnessName => n.harness ?? ctx.graph.defaults?.harness ?? DEFAULT_HARNESS;
const cwdOf = (ctx: ValidateContext, n: AgentNode): string | undefined => n.cwd ?? ctx.graph.defaults?.cwd;

export const sessions: Rule = (ctx) => {
  const resumers = new Map<IndexedNode, IndexedNode[]>();
  for (const n of ctx.index.nodes) {
    retrySession(ctx, n);
    const node = n.node;
    if (node?.kind !== "agent" || node.session === undefined) continue;
    const target = sessionTarget(ctx, n, node);
    if (target?.mode === "resume") resumers.set(target.node, [...(resumers.get(target.node) ?? []), n]);
  }
  for (const [target, list] of resumers) concurrentResumes(ctx, target, list);
};

/** retry.session: continue on a harness that cannot resume, or on a script (it has no session). */
function retrySession(ctx: ValidateContext, n: IndexedNode): void {
  const node = n.node;
  if (node?.kind === "script" && node.retry?.session === "continue") {
    ctx.report({
      path: [...n.path, "retry", "session"],
      message: "retry.session: continue is for agent nodes: a script has no session to continue",
      hint: "remove session from this retry",
    });
  }
  if (node?.kind !== "agent") return;
  const own = node.retry?.session === "continue";
  const inherited = node.retry === undefined && ctx.graph.defaults?.retry?.session === "continue";
  if (!own && !inherited) return;
  const problem = sessionRefusal(harnessOf(ctx, node), "resume", "retry.session");
  if (problem === null) return;
  const path = own ? [...n.path, "retry", "session"] : ["defaults", "retry", "session"];
  ctx.report({ path, message: inherited ? `node "${n.id}" inherits ${problem}` : problem });
}

/** The node `session:` names, when it is one this node may continue or fork. */
function sessionTarget(ctx: ValidateContext, n: IndexedNode, node: AgentNode): { mode: SessionMode; node: IndexedNode } | undefined {
  const spec = node.session!;
  const path = [...n.path, "session"];
  if ((spec.continue === undefined) === (spec.fork === undefined)) {
    ctx.report({
      path,
      message: "session needs exactly one of continue or fork",
      hint: "session: { continue: NODE } resumes NODE's session; session: { fork: NODE } starts a new one from its history",
    });
    return undefined;
  }
  const mode: SessionMode = spec.continue !== undefined ? "resume" : "fork";
  const key = mode === "resume" ? "continue" : "fork";
  const id = (spec.continue ?? spec.fork)!;
  const at = [...path, key];
  const report = (message: string, hint?: string) => ctx.report({ path: at, message, ...(hint ? { hint } : {}) });
  if (id === n.id) return void report(`session.${key} names the node itself: a node can only ${key} the session of a node upstream`);
  const target = ctx.index.find(id, n.scope);
  if (!target) {
    const inBranch = ctx.index.nodes.find((x) => x.id === id && x.scope !== null && x.scope !== n.scope);
    if (inBranch)
      return void report(
        `session.${key}: "${id}" is inside the branch of map "${inBranch.scope}"; each branch has its own session, so a node outside that branch cannot name one`,
      );
    return void report(`session.${key}: unknown node "${id}"`);
  }
  if (target.node === undefined) return undefined; // did not pass the schema: reported there
  if (target.node.kind !== "agent")
    return void report(`session.${key}: "${id}" is a ${target.node.kind} node; only an agent node has a session`);
  if (!ctx.index.isUpstream(n, id)) {
    return void report(
      `session.${key}: "${id}" is not upstream of "${n.id}", so its session may not exist yet when this node starts`,
      addNeedHint(ctx.index, n, id, `"${n.id}"`),
    );
  }
  if (mode === "resume" && n.scope !== null && target.scope === null) {
    return void report(
      `session.continue: "${id}" is an outer node; every branch of map "${n.scope}" would resume its one session at the same time`,
      `use session: { fork: ${id} }: each branch then starts its own session from ${id}'s history`,
    );
  }
  const mine = harnessOf(ctx, node);
  const theirs = harnessOf(ctx, target.node);
  if (mine !== theirs)
    return void report(
      `session.${key}: "${id}" runs on ${theirs} and "${n.id}" on ${mine}; a session can only be continued by the harness that holds it`,
    );
  if (cwdOf(ctx, node) !== cwdOf(ctx, target.node)) {
    const show = (c: string | undefined) => (c === undefined ? "the base folder" : `"${c}"`);
    return void report(
      `session.${key}: "${id}" works in ${show(cwdOf(ctx, target.node))} and "${n.id}" in ${show(cwdOf(ctx, node))}; the CLIs keep sessions per folder, so both need the same cwd`,
    );
  }
  // Each worktree node has a folder of its own (ADR 0020): the same cwd text is another folder.
  const own = (x: AgentNode) => workspaceOf(ctx.graph, x) !== null;
  if (own(node) || own(target.node)) {
    const where = (x: AgentNode) => (own(x) ? "its own worktree" : "the shared folder");
    return void report(
      `session.${key}: "${id}" works in ${where(target.node)} and "${n.id}" in ${where(node)}; the CLIs keep sessions per folder, and every worktree is a folder of its own`,
      `give both nodes workspace: { mode: shared }, or let "${n.id}" start its own session (drop session:) and read what "${id}" did from its branch`,
    );
  }
  const problem = sessionRefusal(mine, mode, `session.${key}`);
  if (problem !== null) return void report(problem);
  return { mode, node: target };
}

/** Two sittings resuming one session at once would interleave in one history:
 *  every pair of nodes that continue the same node must be ordered by needs. */
function concurrentResumes(ctx: ValidateContext, target: IndexedNode, list: IndexedNode[]): void {
  for (let i = 1; i < list.length; i++) {
    const b = list[i]!;
    const a = list.slice(0, i).find((x) => !ctx.index.isUpstream(b, x.id) && !ctx.index.isUpstream(x, b.id));
    if (!a) continue;
    ctx.report({
      path: [...b.path, "session", "continue"],
      message: `session.continue: "${a.id}" and "${b.id}" both continue "${target.id}" and may run at the same time, resuming one session at once`,
      hint: `order them (add "${a.id}" to the needs of "${b.id}"), or let one of them fork: session: { fork: ${target.id} }`,
    });
  }
}
