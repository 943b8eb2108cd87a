// retry.max_cost (ADR 0068) is a share of the node's budget: it needs an agent node
// with a budget_usd cap (its own or the defaults'). A script spends no model money,
// so the share of nothing would never stop it: refused rather than ignored.
import type { Rule } from "./validate-context.ts";

export const retryCost: Rule = (ctx) => {
  const defaults = ctx.graph.defaults;
  for (const n of ctx.index.nodes) {
    const node = n.node;
    if (node?.kind !== "agent" && node?.kind !== "script") continue;
    const own = node.retry?.max_cost !== undefined;
    // Scripts do not inherit defaults.retry (ADR 0006).
    const inherited = node.kind === "agent" && node.retry === undefined && defaults?.retry?.max_cost !== undefined;
    if (!own && !inherited) continue;
    const path = own ? [...n.path, "retry", "max_cost"] : ["defaults", "retry", "max_cost"];

    if (node.kind === "script") {
      ctx.report({
        path,
        message: "retry.max_cost is for agent nodes: a script spends no model money, so no share of it stops a retry",
        hint: "remove max_cost from this retry, or lower retry.max",
      });
      continue;
    }
    if ((node.caps?.budget_usd ?? defaults?.caps?.budget_usd) === undefined)
      ctx.report({
        path,
        message: inherited
          ? `node "${n.id}" inherits retry.max_cost (a share of the node's budget), and has no budget_usd cap`
          : "retry.max_cost is a share of the node's budget, and the node has no budget_usd cap",
        hint: "give the node (or defaults) caps: { budget_usd: N }",
      });
  }
};
