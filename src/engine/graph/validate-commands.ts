// Rules about commands (docs/architecture.md §7) and checks: run:/argv: text is static (no
// templates), a planned graph runs no commands of its own, check names exist,
// regular expressions compile.
import { didYouMean } from "./did-you-mean.ts";
import type { Path } from "./problem.ts";
import { DEFAULT_HARNESS } from "./schema-constants.ts";
import type { CheckRef, Success } from "./schema.ts";
import { templateExpressions } from "../template/parse.ts";
import { hasFolder } from "./validate-planned.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";
import { compileGlob } from "../workspace/glob.ts";

interface Command {
  path: Path;
  text: string;
  /** "run" for a run: string, "argv" for one argv item, "acp.command" for one item of an ACP agent's command line. */
  form: "run" | "argv" | "acp.command";
}

function commands(ctx: ValidateContext): Command[] {
  const out: Command[] = [];
  for (const [name, check] of Object.entries(ctx.graph.checks ?? {}))
    out.push({ path: ["checks", name, "run"], text: check.run, form: "run" });
  (ctx.graph.defaults?.acp?.command ?? []).forEach((a, i) =>
    out.push({ path: ["defaults", "acp", "command", i], text: a, form: "acp.command" }),
  );
  for (const n of ctx.index.nodes) {
    const node = n.node;
    if (node?.kind !== "agent" && node?.kind !== "script" && node?.kind !== "merge") continue;
    (node.success?.checks ?? []).forEach((c, i) => {
      if (typeof c !== "string") out.push({ path: [...n.path, "success", "checks", i, "run"], text: c.run, form: "run" });
    });
    if (node.kind === "agent")
      (node.acp?.command ?? []).forEach((a, i) => out.push({ path: [...n.path, "acp", "command", i], text: a, form: "acp.command" }));
    if (node.kind === "script") {
      if (node.run !== undefined) out.push({ path: [...n.path, "run"], text: node.run, form: "run" });
      (node.argv ?? []).forEach((a, i) => out.push({ path: [...n.path, "argv", i], text: a, form: "argv" }));
    }
  }
  return out;
}

const DATA_HINT =
  "commands are static: data reaches them only through environment variables and files (VOUCH_INPUT_<NAME>, VOUCH_INPUT_<NAME>_FILE, VOUCH_ITEM_FILE, VOUCH_STATE_FILE), never through the command text (docs/graph-language.md, Security rules for commands)";

function envHint(expr: string | undefined): string {
  const m = expr?.match(/^inputs\.([A-Za-z_][A-Za-z0-9_]*)$/);
  const env = m ? `VOUCH_INPUT_${m[1]!.toUpperCase()}` : "";
  return m ? `read "$${env}" instead (or the file "$${env}_FILE": a large value is only there); ${DATA_HINT}` : DATA_HINT;
}

/** No template in a command; no command at all in a planned graph. */
export const staticCommands: Rule = (ctx) => {
  const planned = ctx.graph.origin === "planned";
  const reportedArgv = new Set<string>();
  for (const c of commands(ctx)) {
    if (planned) {
      // One problem per run: key / argv: list, at the key.
      const keyPath = c.form === "run" ? c.path : c.path.slice(0, -1);
      const id = keyPath.join("\u0000");
      if (reportedArgv.has(id)) continue;
      reportedArgv.add(id);
      ctx.report({
        path: keyPath,
        at: "key",
        message: `${c.form}: commands are refused in a planned graph (origin: planned)`,
        hint: "a graph written by a model may not run commands of its own (docs/graph-language.md, Security rules for commands); it may name checks from the library the user gave (checks_from)",
      });
      continue;
    }
    const at = c.text.indexOf("{{");
    if (at < 0) continue;
    const expr = templateExpressions(c.text)[0]?.path.join(".");
    ctx.report({
      path: c.path,
      offset: at,
      message: `a template in a ${c.form === "run" ? "run:" : c.form === "argv" ? "argv:" : "acp.command"} command is refused`,
      hint: envHint(expr),
    });
  }
};

/** A script node has exactly one of run: and argv:. */
export const scriptCommand: Rule = (ctx) => {
  for (const n of ctx.index.nodes) {
    if (n.node?.kind !== "script") continue;
    const { run, argv } = n.node;
    if (run === undefined && argv === undefined)
      ctx.report({
        path: n.path,
        at: "key",
        message: `script node "${n.id}" has neither run: nor argv:`,
        hint: 'add run: "a shell command" or argv: [program, arg, ...]',
      });
    if (run !== undefined && argv !== undefined)
      ctx.report({ path: [...n.path, "argv"], at: "key", message: `script node "${n.id}" has both run: and argv:; choose one` });
  }
};

function regexProblem(text: string): string | undefined {
  try {
    new RegExp(text);
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^Invalid regular expression: /, "");
  }
}

function checkRegex(ctx: ValidateContext, path: Path, field: string, text: string | undefined): void {
  if (text === undefined) return;
  const bad = regexProblem(text);
  if (bad) ctx.report({ path, message: `${field} is not a valid regular expression: ${bad}` });
}

function checkExpect(ctx: ValidateContext, path: Path, check: { expect?: unknown; from_base?: string[]; from_result?: string[] }): void {
  for (const field of ["from_base", "from_result"] as const)
    check[field]?.forEach((glob, i) => {
      const g = compileGlob(glob);
      if (!g.ok)
        ctx.report({
          path: [...path, field, i],
          message: `${field} glob "${glob}" is not valid: ${g.reason}`,
          hint: 'globs are repository paths with *, ?, ** and [..], e.g. "test/**"',
        });
    });
  const e = check.expect;
  if (typeof e === "object" && e !== null && "output_matches" in e) {
    checkRegex(ctx, [...path, "expect", "output_matches"], "output_matches", (e as { output_matches: string }).output_matches);
  }
}

function checkSuccess(ctx: ValidateContext, path: Path, success: Success | undefined): void {
  if (!success) return;
  checkRegex(ctx, [...path, "result_matches"], "result_matches", success.result_matches);
  (success.checks ?? []).forEach((c: CheckRef, i) => {
    const at = [...path, "checks", i];
    if (typeof c !== "string") return checkExpect(ctx, at, c);
    if (ctx.checkNames === "any" || ctx.checkNames.has(c)) return;
    const names = [...ctx.checkNames];
    ctx.report({
      path: at,
      message: `unknown check "${c}"${didYouMean(c, names)}`,
      hint:
        names.length > 0
          ? `checks in this graph's library: ${names.join(", ")}`
          : "define it under checks: at the top of the file, or write it inline: { name, run }",
    });
  });
}

/** Check names used in success.checks exist; every regular expression compiles. */
export const checks: Rule = (ctx) => {
  for (const [name, check] of Object.entries(ctx.graph.checks ?? {})) checkExpect(ctx, ["checks", name], check);
  for (const n of ctx.index.nodes) {
    if (n.node?.kind === "agent" || n.node?.kind === "script" || n.node?.kind === "merge")
      checkSuccess(ctx, [...n.path, "success"], n.node.success);
  }
};

/** Permission modes that switch every safety prompt off, per harness (claude, codex, gemini; acp's
 *  allow-all, where vouch itself would answer yes to every request);
 *  a planned graph refuses these and more (PLANNED_REFUSED_MODES in validate-planned.ts). */
export const UNGUARDED_MODES = ["bypassPermissions", "danger-full-access", "yolo", "allow-all"];

/** A planned graph (written by a model) may not hand itself credentials: env: names
 *  are the user's to grant, from a graph they wrote or the command line (--pass-env).
 *  Modes, tools and folders: validate-planned.ts. */
export const plannedPowers: Rule = (ctx) => {
  if (ctx.graph.origin !== "planned") return;
  const hint = "a graph written by a model may not grant itself credentials; pass names with --pass-env if you mean it";
  const look = (path: Path, holder: { env?: string[] } | undefined) => {
    if (!holder) return;
    if (holder.env !== undefined)
      ctx.report({ path: [...path, "env"], at: "key", message: "env: is refused in a planned graph (origin: planned)", hint });
  };
  look(["defaults"], ctx.graph.defaults);
  for (const n of ctx.index.nodes) {
    // A merge node's env: reaches its checks as a script's does.
    if (hasFolder(n.node?.kind)) look(n.path, n.node as { env?: string[] });
  }
};

/** stamp: writes fields into the model's JSON object: an agent whose output is text has none. */
export const stampNeedsJson: Rule = (ctx) => {
  for (const n of ctx.index.nodes) {
    if (n.node?.kind !== "agent" || n.node.stamp === undefined) continue;
    if (n.node.output?.format === "json") continue;
    ctx.report({
      path: [...n.path, "stamp"],
      at: "key",
      message: `stamp needs a JSON object output, but node "${n.id}" answers in text`,
      hint: "add output: { format: json } (with a schema if you can), or remove stamp",
    });
  }
};

/** `acp:` names an ACP agent's command line: on a node whose harness is not acp it would be
 *  ignored, so it is refused (defaults.acp applies to the acp nodes only). */
export const acpOnAcp: Rule = (ctx) => {
  for (const n of ctx.index.nodes) {
    if (n.node?.kind !== "agent" || n.node.acp === undefined) continue;
    const harness = n.node.harness ?? ctx.graph.defaults?.harness ?? DEFAULT_HARNESS;
    if (harness === "acp") continue;
    ctx.report({
      path: [...n.path, "acp"],
      at: "key",
      message: `acp: is for harness: acp, but node "${n.id}" runs on ${harness}`,
      hint: "set harness: acp on the node, or remove acp:",
    });
  }
};
