// An output schema's `$ref`s resolve inside the schema, or the graph is refused
// at the reference's line (schema-refs.ts says why; issue 27 item 14).
import type { Rule } from "./validate-context.ts";
import { schemaRefProblems } from "./schema-refs.ts";
import { tooDeepAt } from "../json-depth.ts";

const HINT = "copy the referenced schema under $defs and point at it with $ref: '#/$defs/NAME'";

export const schemaRefs: Rule = (ctx) => {
  for (const n of ctx.index.nodes) {
    const node = n.node;
    if (node?.kind !== "agent" && node?.kind !== "script") continue;
    // A schema too deep is refused by valueDepth; it is not walked here.
    if (node.output?.schema === undefined || tooDeepAt(node.output.schema) !== null) continue;
    for (const p of schemaRefProblems(node.output.schema))
      ctx.report({ path: [...n.path, "output", "schema", ...p.path], message: p.message, hint: HINT });
  }
};
