// Rules about the shape of the graph: node ids and the edges between them
// (needs, routes, fallbacks, feedback), cycles, and the ADR 0002 restrictions.
import { addNeedHint } from "./needs-hint.ts";
import { cycleThrough, cyclicComponents } from "./dag.ts";
import { didYouMean } from "./did-you-mean.ts";
import type { Edge, IndexedNode } from "./graph-index.ts";
import type { Path } from "./problem.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";

const where = (n: IndexedNode) => (n.scope === null ? "an outer node" : `a node in the branch of map "${n.scope}"`);

/** Node ids are unique in a file: branch results and outer results share nodes.<id>. */
export const uniqueIds: Rule = (ctx) => {
  const first = new Map<string, IndexedNode>();
  for (const n of ctx.index.nodes) {
    const earlier = first.get(n.id);
    if (!earlier) {
      first.set(n.id, n);
      continue;
    }
    ctx.report({
      path: n.path,
      at: "key",
      message: `node id "${n.id}" is already used by ${where(earlier)}; node ids are unique in a file`,
      hint: "rename one of them (templates and events name nodes by id alone)",
    });
  }
};

/** Reports a reference to a node that is not in `scope`, with the most useful explanation. */
function checkRef(ctx: ValidateContext, from: IndexedNode, target: string, path: Path, field: string): IndexedNode | undefined {
  const local = ctx.index.scope(from.scope);
  const found = local.get(target);
  if (found) return found;
  const outer = ctx.index.scope(null).get(target);
  if (from.scope !== null && outer) {
    ctx.report({
      path,
      message: `"${target}" is an outer node; the ${field} of a branch node must name nodes of its own branch`,
      hint:
        field === "needs"
          ? `the map starts after its own needs: ${addNeedHint(ctx.index, ctx.index.scope(null).get(from.scope)!, target, `map "${from.scope}"`)}`
          : `name a node of the branch of map "${from.scope}"`,
    });
    return undefined;
  }
  const elsewhere = ctx.index.withId(target).find((n) => n.scope !== from.scope);
  if (elsewhere && elsewhere.scope !== null) {
    ctx.report({
      path,
      message: `"${target}" is inside the branch of map "${elsewhere.scope}"; ${field} cannot reach into a branch`,
      hint: from.scope === null ? `name the map instead: ${elsewhere.scope} (its results are nodes.${elsewhere.scope}.results)` : undefined,
    });
    return undefined;
  }
  ctx.report({ path, message: `unknown node "${target}" in ${field}${didYouMean(target, ctx.index.suggester(from.scope))}` });
  return undefined;
}

/** needs, router targets, fallback and feedback name existing nodes of the same scope. */
export const references: Rule = (ctx) => {
  const fallbackOf = new Map<string, IndexedNode>();
  for (const n of ctx.index.nodes) {
    n.needs.forEach((need, i) => {
      const target = checkRef(ctx, n, need, [...n.path, "needs", i], "needs");
      if (target?.kind === "end") {
        ctx.report({
          path: [...n.path, "needs", i],
          message: `"${need}" is an end node; no node may need an end node`,
          hint: "an end node gives the final output; put the work it depends on before it, and let the end node need that",
        });
      }
    });
    const node = n.node;
    if (!node) continue;
    if (node.kind === "router") {
      node.routes.forEach((r, i) => r.to.forEach((t, j) => checkRef(ctx, n, t, [...n.path, "routes", i, "to", j], "routes")));
      (node.default ?? []).forEach((t, j) => checkRef(ctx, n, t, [...n.path, "default", j], "default"));
    }
    if (node.kind === "agent" || node.kind === "script") {
      if (node.fallback !== undefined) {
        const path = [...n.path, "fallback"];
        if (node.fallback === n.id) ctx.report({ path, message: `a node cannot be its own fallback` });
        else {
          const target = checkRef(ctx, n, node.fallback, path, "fallback");
          if (target && !fallbackOf.has(target.id)) fallbackOf.set(target.id, n);
        }
        if (node.exhausted !== undefined) {
          ctx.report({
            path: [...n.path, "exhausted"],
            at: "key",
            message: `node "${n.id}" has both fallback and exhausted; a node may have only one`,
            hint: "fallback starts another node when this one finally fails; exhausted records an output instead and lets the dependents run",
          });
        }
      }
      if (node.feedback !== undefined) feedbackTarget(ctx, n, node.feedback.to);
    }
  }
  for (const [targetId, owner] of fallbackOf) {
    const target = ctx.index.scope(owner.scope).get(targetId)!;
    if (target.needs.length > 0) {
      ctx.report({
        path: [...target.path, "needs"],
        at: "key",
        message: `"${targetId}" is the fallback of "${owner.id}" and may not have needs`,
        hint: `a fallback starts when "${owner.id}" finally fails; it reads nodes.${owner.id}.error without needing it`,
      });
    }
  }
};

function feedbackTarget(ctx: ValidateContext, n: IndexedNode, to: string): void {
  const path = [...n.path, "feedback", "to"];
  if (to === n.id) {
    ctx.report({
      path,
      message: `feedback.to names the node itself; it must name an earlier node that "${n.id}" depends on`,
      hint: "to re-run this node alone, use retry",
    });
    return;
  }
  const target = checkRef(ctx, n, to, path, "feedback.to");
  if (!target) return;
  if (!ctx.index.isUpstream(n, to) || target.scope !== n.scope) {
    ctx.report({
      path,
      message: `feedback.to "${to}" is not upstream of "${n.id}"; a feedback loop re-runs an ancestor`,
      hint: `name a node that "${n.id}" needs, directly or through others`,
    });
  }
}

function describeEdge(e: Edge): string {
  if (e.via === "route") return `router ${e.to} routes to ${e.from}`;
  if (e.via === "fallback") return `${e.from} is the fallback of ${e.to}`;
  return `${e.from} needs ${e.to}`;
}

/** Cycles through needs (and router routes and fallbacks, which order nodes too), printed. */
export const cycles: Rule = (ctx) => {
  const scopes = new Set(ctx.index.nodes.map((n) => n.scope));
  for (const scope of scopes) {
    const ids = [...ctx.index.scope(scope).keys()];
    const deps = ctx.index.deps(scope);
    for (const component of cyclicComponents(ids, deps)) {
      const cycle = cycleThrough(component, deps);
      const steps: Edge[] = [];
      for (let i = 0; i + 1 < cycle.length; i++) {
        const candidates = ctx.index.edges(scope).filter((e) => e.from === cycle[i] && e.to === cycle[i + 1]);
        steps.push(candidates.find((e) => e.via === "needs") ?? candidates[0]!);
      }
      const others = steps.filter((e) => e.via !== "needs").map(describeEdge);
      const onlyNeeds = others.length === 0;
      ctx.report({
        path: steps[0]!.path,
        message: `cycle in ${onlyNeeds ? "needs" : "the graph"}: ${cycle.join(" → ")}`,
        hint: onlyNeeds
          ? "each node needs the next one; remove one of these needs (for a bounded loop use feedback: { to, max })"
          : `${others.join("; ")}; every other step is a need. Remove one step (for a bounded loop use feedback: { to, max })`,
      });
    }
  }
};

const RESERVED_ROOTS = ["inputs", "nodes", "index", "error"];

/** Map-specific structure: a non-empty branch, an `as` that does not hide a root. */
export const maps: Rule = (ctx) => {
  for (const n of ctx.index.nodes) {
    if (n.node?.kind !== "map") continue;
    if (Object.keys(n.node.branch).length === 0 && !ctx.index.nodes.some((b) => b.scope === n.id)) {
      ctx.report({
        path: [...n.path, "branch"],
        message: `the branch of map "${n.id}" has no nodes`,
        hint: "add the node(s) to run once per item",
      });
    }
    if (n.node.as !== undefined && RESERVED_ROOTS.includes(n.node.as)) {
      ctx.report({
        path: [...n.path, "as"],
        message: `as: ${n.node.as} would hide the template root "${n.node.as}"`,
        hint: "choose another name for the item, e.g. as: finding",
      });
    }
  }
};

/** Inputs reach commands as VOUCH_INPUT_<NAME upper-cased> and VOUCH_INPUT_<NAME>_FILE:
 *  no two names may collide there (`x_file`'s value would be `x`'s file name). */
export const inputNames: Rule = (ctx) => {
  const seen = new Map<string, string>();
  const names = Object.keys(ctx.graph.inputs ?? {});
  for (const name of names) {
    const env = name.toUpperCase();
    const other = seen.get(env);
    if (other !== undefined) {
      ctx.report({
        path: ["inputs", name],
        at: "key",
        message: `inputs "${other}" and "${name}" would both reach commands as VOUCH_INPUT_${env}`,
        hint: "rename one of them",
      });
    } else seen.set(env, name);
  }
  for (const name of names) {
    const env = name.toUpperCase();
    const owner = env.endsWith("_FILE") ? seen.get(env.slice(0, -"_FILE".length)) : undefined;
    if (owner === undefined) continue;
    ctx.report({
      path: ["inputs", name],
      at: "key",
      message: `input "${name}" would reach commands as VOUCH_INPUT_${env}, the name of input "${owner}"'s file`,
      hint: "rename one of them",
    });
  }
};
