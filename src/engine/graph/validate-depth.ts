// Values a graph carries as data (an input's default, an end node's output, an
// exhausted output, an output schema) nest no deeper than MAX_JSON_DEPTH, the
// bound every output is held to (ADR 0019): they are stored, rendered and
// compiled like outputs are.
import { MAX_JSON_DEPTH, TOO_DEEP, tooDeepAt } from "../json-depth.ts";
import type { Path } from "./problem.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";

function look(ctx: ValidateContext, path: Path, value: unknown, what: string): void {
  if (value === undefined) return;
  const deep = tooDeepAt(value);
  if (deep === null) return;
  ctx.report({
    path: [...path, ...deep],
    message: `${what} is ${TOO_DEEP}`,
    hint: `vouch keeps data at most ${MAX_JSON_DEPTH} levels deep; flatten it`,
  });
}

export const valueDepth: Rule = (ctx) => {
  for (const [name, def] of Object.entries(ctx.graph.inputs ?? {}))
    look(ctx, ["inputs", name, "default"], def.default, `the default of input "${name}"`);
  for (const n of ctx.index.nodes) {
    const node = n.node;
    if (node?.kind === "end") look(ctx, [...n.path, "output"], node.output, "output");
    if (node?.kind === "agent" || node?.kind === "script") {
      look(ctx, [...n.path, "exhausted", "output"], node.exhausted?.output, "exhausted.output");
      look(ctx, [...n.path, "output", "schema"], node.output?.schema, "output.schema");
    }
  }
};
