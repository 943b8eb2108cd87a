// What a planned graph (origin: planned, written by a model) may not do besides
// running commands of its own (validate-commands.ts): get a shell by the back door.
// An agent it declares may not pre-approve a tool that runs commands, may not run
// in a mode that approves everything (or every command), and may not work outside
// the folder the run starts in. Each refusal names the field and why.
import type { Path } from "./problem.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";

/** Tools (base names, compared without case) that run commands: pre-approving one
 *  hands the model a shell. claude `Bash` (and `Bash(rule)`), `PowerShell`; gemini's
 *  shell tool; codex's shell tools. MCP tools (`mcp__…`) reach servers vouch cannot
 *  see, so they are refused too. */
export const COMMAND_TOOLS = ["bash", "powershell", "run_shell_command", "shell", "local_shell", "exec_command"];

/** Permission modes refused in a planned graph, with why. The three that switch
 *  every prompt off are UNGUARDED_MODES; the others approve commands on the model's
 *  say-so (claude `auto`) or let its commands write (codex `workspace-write`). */
export const PLANNED_REFUSED_MODES: Readonly<Record<string, string>> = {
  bypassPermissions: "it approves every tool call, commands included (claude)",
  auto: "it approves tool calls, commands included, without asking anyone (claude)",
  "danger-full-access": "it lets the model's commands do anything, anywhere (codex)",
  "workspace-write": "it is a writable sandbox: the model's commands may change files (codex)",
  yolo: "it approves every tool call, the shell included (gemini)",
  "allow-all": "vouch would answer yes to every permission request, commands included (acp)",
};

const HINT =
  "a graph written by a model may not give itself a shell: the user grants that in a graph they wrote (docs/graph-language.md, Planned graphs)";

export function commandTool(tool: string): boolean {
  const base = tool.replace(/\(.*$/s, "").trim().toLowerCase();
  return COMMAND_TOOLS.includes(base) || base.startsWith("mcp__");
}

/** Why a planned graph's cwd is refused, or null: only a static relative path inside the run's folder. */
export function plannedCwdProblem(cwd: string): string | null {
  if (cwd.includes("{{")) return "a template: its value is known only when the run starts";
  if (cwd.startsWith("/") || cwd.startsWith("~") || /^[A-Za-z]:[\\/]/.test(cwd))
    return "not a path relative to the folder the run starts in";
  let depth = 0;
  for (const seg of cwd.split(/[\\/]+/)) {
    if (seg === "..") depth--;
    else if (seg !== "." && seg !== "") depth++;
    if (depth < 0) return "it leads out of the folder the run starts in";
  }
  return null;
}

interface Holder {
  tools?: string[];
  permission_mode?: string;
  cwd?: string;
  sandbox?: string;
  caps?: { wall?: unknown; idle?: unknown };
}

/** A planned graph may not lift the default wall or idle cap (ADR 0050): a model would choose how long its own sittings may run. */
function liftedCaps(ctx: ValidateContext, path: Path, h: Holder): void {
  for (const cap of ["wall", "idle"] as const) {
    if (h.caps?.[cap] !== "none") continue;
    ctx.report({
      path: [...path, "caps", cap],
      message: `caps.${cap}: none is refused in a planned graph (origin: planned): a model may not lift the limit on its own sittings`,
      hint: `give a duration (caps: { ${cap}: 30m }) or leave it out for the default`,
    });
  }
}

function look(ctx: ValidateContext, path: Path, h: Holder | undefined): void {
  if (!h) return;
  liftedCaps(ctx, path, h);
  (h.tools ?? []).forEach((tool, i) => {
    if (!commandTool(tool)) return;
    const why = tool.toLowerCase().startsWith("mcp__") ? "it reaches an MCP server, which may run anything" : "it runs commands";
    ctx.report({
      path: [...path, "tools", i],
      message: `tool ${tool} is refused in a planned graph (origin: planned): ${why}`,
      hint: HINT,
    });
  });
  const mode = h.permission_mode;
  if (mode !== undefined && Object.hasOwn(PLANNED_REFUSED_MODES, mode)) {
    ctx.report({
      path: [...path, "permission_mode"],
      message: `permission_mode ${mode} is refused in a planned graph (origin: planned): ${PLANNED_REFUSED_MODES[mode]}`,
      hint: HINT,
    });
  }
  // The model does not get to take its own house down (ADR 0040); the user may, with --sandbox off.
  if (h.sandbox === "off") {
    ctx.report({
      path: [...path, "sandbox"],
      message:
        "sandbox: off is refused in a planned graph (origin: planned): its sittings would run unsealed, able to write outside their tree",
      hint: "leave sandbox out (auto), or pass --sandbox off yourself",
    });
  }
  const bad = h.cwd === undefined ? null : plannedCwdProblem(h.cwd);
  if (bad !== null) {
    ctx.report({
      path: [...path, "cwd"],
      message: `cwd ${JSON.stringify(h.cwd)} is refused in a planned graph (origin: planned): ${bad}`,
      hint: "write a folder relative to where the run starts, without .. (e.g. cwd: src), or leave cwd out",
    });
  }
}

/** The kinds that have a cwd of their own: a merge node's cwd picks the repository it writes a branch into. */
export function hasFolder(kind: string | undefined): boolean {
  return kind === "agent" || kind === "script" || kind === "merge";
}

export const plannedReach: Rule = (ctx) => {
  if (ctx.graph.origin !== "planned") return;
  look(ctx, ["defaults"], ctx.graph.defaults);
  for (const n of ctx.index.nodes) {
    if (hasFolder(n.node?.kind)) look(ctx, n.path, n.node as Holder);
  }
  // Workers at a URL the model chose would run its branches and send back their
  // verdicts: evidence vouch did not gather. The user grants that with --executor.
  if (ctx.graph.executor !== undefined) {
    ctx.report({
      path: ["executor"],
      message:
        "executor is refused in a planned graph (origin: planned): the processes at that URL would run its branches and report their verdicts",
      hint: "pass --executor redis://… yourself if you mean the branches to run on your workers",
    });
  }
};
