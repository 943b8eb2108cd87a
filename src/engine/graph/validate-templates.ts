// Rules about data paths: templates in prompts, outputs, stamps and cwd;
// condition paths in when, routes and feedback.when; a map's over and verdict.
import { conditionPaths } from "./condition-rules.ts";
import { didYouMean } from "./did-you-mean.ts";
import type { IndexedNode } from "./graph-index.ts";
import { schemaAt } from "./json-schema-path.ts";
import type { Path } from "./problem.ts";
import { checkPath, type UseSite } from "./references.ts";
import type { MapNode } from "./schema.ts";
import { parseTemplate } from "../template/parse.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";

function checkTemplate(ctx: ValidateContext, site: UseSite, path: Path, text: string): void {
  if (!text.includes("{{")) return;
  const parsed = parseTemplate(text);
  for (const p of parsed.problems) ctx.report({ path, offset: p.offset, message: `template: ${p.message}` });
  for (const seg of parsed.segments) {
    if (seg.kind !== "expr") continue;
    const problem = checkPath(ctx, site, seg.path);
    if (problem)
      ctx.report({
        path,
        offset: seg.offset,
        message: `{{ ${seg.source} }}: ${problem.message}`,
        ...(problem.hint ? { hint: problem.hint } : {}),
      });
  }
}

/** Every string inside a JSON-like value (end outputs, exhausted outputs) is a template. */
function checkDeep(ctx: ValidateContext, site: UseSite, path: Path, value: unknown, depth = 0): void {
  if (depth > 64) return;
  if (typeof value === "string") checkTemplate(ctx, site, path, value);
  else if (Array.isArray(value)) value.forEach((v, i) => checkDeep(ctx, site, [...path, i], v, depth + 1));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) checkDeep(ctx, site, [...path, k], v, depth + 1);
  }
}

function checkCondition(ctx: ValidateContext, site: UseSite, path: Path, condition: unknown): void {
  // conditionPaths gives the paths; their place in the file is found by walking the same structure.
  const visit = (c: unknown, at: Path) => {
    if (c === null || typeof c !== "object" || Array.isArray(c)) return;
    for (const [key, v] of Object.entries(c)) {
      if ((key === "all" || key === "any") && Array.isArray(v)) v.forEach((x, i) => visit(x, [...at, key, i]));
      else if (key === "not") visit(v, [...at, key]);
      else if (conditionPaths({ [key]: v }).length > 0) {
        const problem = checkPath(ctx, site, key.split("."));
        if (problem)
          ctx.report({
            path: [...at, key],
            at: "key",
            message: `condition path ${key}: ${problem.message}`,
            ...(problem.hint ? { hint: problem.hint } : {}),
          });
      }
    }
  };
  visit(condition, path);
}

/** Templates and condition paths name inputs, upstream nodes and roots that exist where they are used. */
export const dataPaths: Rule = (ctx) => {
  if (ctx.graph.defaults?.cwd !== undefined) checkTemplate(ctx, { entry: null }, ["defaults", "cwd"], ctx.graph.defaults.cwd);
  for (const n of ctx.index.nodes) {
    const node = n.node;
    if (!node) continue;
    const site: UseSite = { entry: n };
    if (node.when !== undefined) checkCondition(ctx, site, [...n.path, "when"], node.when);
    switch (node.kind) {
      case "agent":
      case "script":
        if (node.kind === "agent") checkTemplate(ctx, site, [...n.path, "prompt"], node.prompt);
        if (node.cwd !== undefined) checkTemplate(ctx, site, [...n.path, "cwd"], node.cwd);
        for (const [k, v] of Object.entries(node.stamp ?? {})) checkTemplate(ctx, site, [...n.path, "stamp", k], v);
        if (node.exhausted) checkDeep(ctx, { entry: n, allowError: true }, [...n.path, "exhausted", "output"], node.exhausted.output);
        if (node.feedback?.when !== undefined)
          checkCondition(ctx, { entry: n, allowSelf: true }, [...n.path, "feedback", "when"], node.feedback.when);
        break;
      case "approval":
        if (node.prompt !== undefined) checkTemplate(ctx, site, [...n.path, "prompt"], node.prompt);
        break;
      case "end":
        checkDeep(ctx, site, [...n.path, "output"], node.output);
        break;
      case "router":
        node.routes.forEach((r, i) => checkCondition(ctx, site, [...n.path, "routes", i, "when"], r.when));
        break;
      case "map":
        checkOver(ctx, n, node);
        checkVerdict(ctx, n, node);
        break;
      case "graph":
        // Rendered in this graph's scope; the sub-graph sees only the values (ADR 0024).
        checkDeep(ctx, site, [...n.path, "inputs"], node.inputs);
        break;
    }
  }
};

const OVER_HINT = "over names a list: inputs.NAME (a text input maps over its lines, a list over its items) or nodes.ID.output.FIELD";
const PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.(?:[A-Za-z_][A-Za-z0-9_-]*|\d+))*$/;

function checkOver(ctx: ValidateContext, n: IndexedNode, map: MapNode): void {
  const path = [...n.path, "over"];
  const over = map.over.trim();
  const report = (message: string, hint?: string) => ctx.report({ path, message, ...(hint ? { hint } : {}) });
  if (over.includes("{{"))
    return report(`over is a path, not a template`, `write it without braces: over: ${over.replace(/^\{\{\s*|\s*\}\}$/g, "")}`);
  if (!PATH.test(over)) return report(`over: "${over}" is not a path`, OVER_HINT);
  const parts = over.split(".");
  const [root, id, field, ...deeper] = parts as [string, string | undefined, string | undefined, ...string[]];
  if (root !== "inputs" && root !== "nodes")
    return report(`over must start with inputs. or nodes., not "${root}"${didYouMean(root, ["inputs", "nodes"])}`, OVER_HINT);
  // Existence and ancestry here; whether the rest names a list is decided below.
  const problem = checkPath(ctx, { entry: n }, root === "nodes" ? parts.slice(0, 3) : parts);
  if (problem) return report(`over ${over}: ${problem.message}`, problem.hint);
  if (root === "inputs") {
    if (id === undefined || parts.length > 2) return report(`over ${over}: name one input, as inputs.NAME`, OVER_HINT);
    const def = ctx.graph.inputs?.[id]?.default;
    if (def !== undefined && typeof def !== "string" && !Array.isArray(def))
      return report(`over ${over}: the default of input "${id}" is neither text nor a list`, OVER_HINT);
    return;
  }
  const target = ctx.index.find(id!, null)?.node;
  if (!target) return;
  const notList = (why: string, hint?: string) => report(`over ${over} cannot name a list: ${why}`, hint);
  if (field === "status" || field === "error") return notList(`nodes.${id}.${field} is text`);
  if (target.kind === "map") {
    const listy = (field === "results" && deeper.length === 0) || (field === "output" && deeper.length === 1 && deeper[0] === "results");
    return listy ? undefined : notList(`the list of map "${id}" is nodes.${id}.results`);
  }
  if (target.kind === "router" || target.kind === "approval" || target.kind === "end")
    return notList(`a ${target.kind} node has no list output`);
  if (target.kind === "agent" && target.output?.format !== "json") {
    return notList(
      `the output of agent "${id}" is text (no output: { format: json })`,
      `give "${id}" output: { format: json, schema: ... } with a list field, and map over that field`,
    );
  }
  if (target.kind === "script" && target.output?.format === "text")
    return notList(`the output of script "${id}" is text (output: { format: text })`);
  if ((target.kind === "agent" || target.kind === "script") && target.output?.schema) {
    const fact = schemaAt(target.output.schema, deeper);
    if (fact.kind === "absent")
      return report(
        `over ${over}: the output schema of "${id}" has no field "${fact.field}"${didYouMean(fact.field, fact.known)}`,
        `its fields: ${fact.known.join(", ")}`,
      );
    if (fact.kind === "typed" && !fact.types.includes("array")) {
      const what = deeper.slice(0, fact.depth).join(".") || "the output";
      return notList(
        `the output schema of "${id}" types ${what} as ${fact.types.join(" or ")}`,
        "map over a field whose schema type is array",
      );
    }
  }
}

const VERDICT_ROOTS = ["output", "status", "item", "index", "error"];

function checkVerdict(ctx: ValidateContext, n: IndexedNode, map: MapNode): void {
  if (map.verdict === undefined) return;
  const root = map.verdict.split(".")[0]!;
  if (!VERDICT_ROOTS.includes(root) || !PATH.test(map.verdict)) {
    ctx.report({
      path: [...n.path, "verdict"],
      message: `verdict: "${map.verdict}" must start with ${VERDICT_ROOTS.join(", ")}${didYouMean(root, VERDICT_ROOTS)}`,
      hint: "the verdict is read from each branch's { output, status, item, index, error }, e.g. verdict: output.verdict",
    });
  }
}
