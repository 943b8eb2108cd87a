// Values vouch hands a harness on its command line (model, tools,
// permission_mode) never start with "-", whatever the graph's origin
// (ADR 0019): `model: "--yolo"` reached gemini as `-m --yolo`, its yolo flag.
// The adapters also pass every value in the --flag=value form; refusing at load
// says what is wrong, and where, before anything runs.
import type { Path } from "./problem.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";

interface ArgvSettings {
  model?: string;
  tools?: string[];
  permission_mode?: string;
}

const HINT = 'model names, tool names and permission modes never start with "-"; a value such as --yolo would reach the harness as a flag';

function refuse(ctx: ValidateContext, path: Path, field: string, value: string): void {
  if (value.startsWith("-"))
    ctx.report({
      path,
      message: `${field} "${value}" starts with "-": it is refused, since a harness would read it as a command-line flag`,
      hint: HINT,
    });
}

function look(ctx: ValidateContext, path: Path, s: ArgvSettings | undefined): void {
  if (!s) return;
  if (typeof s.model === "string") refuse(ctx, [...path, "model"], "model", s.model);
  if (typeof s.permission_mode === "string") refuse(ctx, [...path, "permission_mode"], "permission_mode", s.permission_mode);
  (s.tools ?? []).forEach((t, i) => typeof t === "string" && refuse(ctx, [...path, "tools", i], "tool", t));
}

export const argvValues: Rule = (ctx) => {
  look(ctx, ["defaults"], ctx.graph.defaults);
  for (const n of ctx.index.nodes) if (n.node?.kind === "agent") look(ctx, n.path, n.node);
};
