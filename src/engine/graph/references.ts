// Whether a data path (a template's or a condition's) names something that
// will be there when the node using it runs: a declared input, an upstream
// node's result, the map item inside a branch, `error` inside `exhausted`.
import { addNeedHint } from "./needs-hint.ts";
import { didYouMean, listOr } from "./did-you-mean.ts";
import type { IndexedNode } from "./graph-index.ts";
import { schemaAt } from "./json-schema-path.ts";
import type { MapNode } from "./schema.ts";
import type { ValidateContext } from "./validate-context.ts";

export interface UseSite {
  /** The node whose template or condition this is; null for `defaults`. */
  entry: IndexedNode | null;
  /** `error` (the one-line failure) is there: inside `exhausted: { output }`. */
  allowError?: boolean;
  /** The node's own result is there: `feedback.when` runs after the node. */
  allowSelf?: boolean;
}

export interface RefProblem {
  message: string;
  hint?: string;
}

const NODE_FIELDS = ["output", "status", "error"];
const MAP_FIELDS = [...NODE_FIELDS, "results"];
const RESULT_FIELDS = ["index", "item", "status", "verdict", "output", "error"];

function mapOf(ctx: ValidateContext, site: UseSite): MapNode | undefined {
  const scope = site.entry?.scope;
  const m = scope ? ctx.index.scope(null).get(scope)?.node : undefined;
  return m?.kind === "map" ? m : undefined;
}

/** The roots a path may start with at this site. */
export function rootsAt(ctx: ValidateContext, site: UseSite): string[] {
  const roots = ["inputs"];
  if (site.entry) roots.push("nodes");
  if (site.entry?.scope) roots.push(mapOf(ctx, site)?.as ?? "item", "index");
  if (site.allowError) roots.push("error");
  return roots;
}

/** null when the path is fine, else what is wrong. */
export function checkPath(ctx: ValidateContext, site: UseSite, path: readonly string[]): RefProblem | null {
  const [root = "", ...rest] = path;
  const inBranch = Boolean(site.entry?.scope);
  const itemName = mapOf(ctx, site)?.as ?? "item";
  if (root === "inputs") return checkInput(ctx, rest);
  if (root === "nodes") {
    if (!site.entry) return { message: `defaults apply to every node, so they may read inputs only` };
    return checkNode(ctx, site, site.entry, rest);
  }
  if (inBranch && root === itemName) return null;
  if (inBranch && root === "index") return rest.length === 0 ? null : { message: `index is a number; it has no field "${rest[0]}"` };
  if (root === "error" && site.allowError)
    return rest.length === 0 ? null : { message: `error is the one-line failure text; it has no field "${rest[0]}"` };
  if (root === "error")
    return { message: `"error" exists only inside exhausted: { output }`, hint: "to read another node's failure use nodes.ID.error" };
  if (root === "item" && inBranch)
    return { message: `this map names its item "${itemName}" (as: ${itemName})`, hint: `write ${[itemName, ...rest].join(".")}` };
  if (root === "item" || root === "index") {
    return { message: `"${root}" exists only inside a map branch` };
  }
  const roots = rootsAt(ctx, site);
  return { message: `unknown name "${root}"${didYouMean(root, roots)}`, hint: `a path starts with ${listOr(roots)}` };
}

function checkInput(ctx: ValidateContext, rest: string[]): RefProblem | null {
  const name = rest[0];
  if (name === undefined || ctx.inputNames === "any" || ctx.inputNames.has(name)) return null;
  const names = [...ctx.inputNames];
  return {
    message: `no input "${name}"${didYouMean(name, names)}`,
    hint:
      names.length > 0 ? `declared inputs: ${names.join(", ")}` : `declare it under inputs: (e.g. inputs: { ${name}: { required: true } })`,
  };
}

function checkNode(ctx: ValidateContext, site: UseSite, entry: IndexedNode, rest: string[]): RefProblem | null {
  const [id, field, ...deeper] = rest;
  if (id === undefined) return { message: `name a node: nodes.ID.output` };
  const target = ctx.index.find(id, entry.scope);
  if (!target) {
    const inBranch = ctx.index.withId(id)[0];
    if (inBranch?.scope)
      return {
        message: `"${id}" runs inside the branch of map "${inBranch.scope}"`,
        hint: `read the branch results as nodes.${inBranch.scope}.results`,
      };
    return { message: `no node "${id}"${didYouMean(id, ctx.index.suggester(entry.scope, true))}` };
  }
  if (target === entry && !site.allowSelf) return { message: `node "${id}" cannot read its own result here` };
  if (target.id === entry.scope)
    return { message: `the results of map "${id}" are not there while its branch runs`, hint: "read them in a node that needs the map" };
  if (target !== entry && !ctx.index.isUpstream(entry, id)) {
    const viaMap = target.scope === null && entry.scope !== null;
    const needer = viaMap ? ctx.index.scope(null).get(entry.scope!)! : entry;
    return {
      message: `"${id}" is not upstream of "${entry.id}", so its result is not there yet`,
      hint: addNeedHint(ctx.index, needer, id, viaMap ? `map "${entry.scope}"` : `"${entry.id}"`),
    };
  }
  const fields = target.kind === "map" ? MAP_FIELDS : NODE_FIELDS;
  if (field === undefined) return { message: `say which part of node "${id}": ${fields.map((f) => `nodes.${id}.${f}`).join(", ")}` };
  if (!fields.includes(field))
    return {
      message: `node "${id}" has no "${field}"${didYouMean(field, fields)}`,
      hint: `${target.kind === "agent" || target.kind === "approval" || target.kind === "end" ? "an" : "a"} ${target.kind ?? ""} node has ${listOr(fields)}`,
    };
  if (field === "results") {
    const f = deeper[1];
    if (deeper[0] !== undefined && !/^\d+$/.test(deeper[0]))
      return { message: `nodes.${id}.results is a list; index it with a number or use it whole` };
    if (f !== undefined && !RESULT_FIELDS.includes(f))
      return {
        message: `a map result has no "${f}"${didYouMean(f, RESULT_FIELDS)}`,
        hint: `each result is { ${RESULT_FIELDS.join(", ")} }`,
      };
    return null;
  }
  if (field === "output" && deeper.length > 0) return checkOutputPath(target, id, deeper);
  return null;
}

/** nodes.X.output.<deeper> against what X's output contract says. */
function checkOutputPath(target: IndexedNode, id: string, deeper: string[]): RefProblem | null {
  const node = target.node;
  if (node?.kind === "map") {
    if (deeper[0] === "results" || deeper[0] === "counts") return null;
    return {
      message: `the output of map "${id}" is { results, counts }; it has no "${deeper[0]}"${didYouMean(deeper[0]!, ["results", "counts"])}`,
    };
  }
  if (node?.kind === "agent" && node.output?.format !== "json") {
    return {
      message: `the output of "${id}" is text (it has no output: { format: json }), so it has no field "${deeper[0]}"`,
      hint: `give "${id}" output: { format: json, schema: ... }`,
    };
  }
  if ((node?.kind === "agent" || node?.kind === "script") && node.output?.schema) {
    const fact = schemaAt(node.output.schema, deeper);
    if (fact.kind === "absent")
      return {
        message: `the output schema of "${id}" has no field "${fact.field}"${didYouMean(fact.field, fact.known)}`,
        hint: `its fields: ${fact.known.join(", ")}`,
      };
    if (fact.kind === "typed" && fact.depth < deeper.length) {
      return {
        message: `the output schema of "${id}" types ${deeper.slice(0, fact.depth).join(".") || "the output"} as ${fact.types.join(" or ")}, which has no field "${deeper[fact.depth]}"`,
      };
    }
  }
  return null;
}
