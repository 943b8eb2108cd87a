#!/usr/bin/env bun
// The composition root (docs/architecture.md §1): parses argv, picks the command, and
// (inside the command modules of src/cli/) builds the real ports. Commands
// are imported lazily so `--version` and `--json` runs never load ink.
import { VouchError, EXIT, GraphInvalidError, formatProblem } from "./engine/errors.ts";
import { processIO, type CliIO, type Command } from "./cli/io.ts";
import { stdoutClosed } from "./cli/stdout-closed.ts";

import { versionLine } from "./cli/version.ts";
import { jitForCommand } from "./cli/jit-policy.ts";
import { sanitize } from "./tui/text.ts";

const COMMANDS: Record<string, () => Promise<{ default: Command }>> = {
  schema: () => import("./cli/schema-command.ts"),
  runs: () => import("./cli/runs-command.ts"),
  show: () => import("./cli/show-command.ts"),
  report: () => import("./cli/report-command.ts"),
  harnesses: () => import("./cli/harnesses-command.ts"),
  doctor: () => import("./cli/doctor-command.ts"),
  run: () => import("./cli/run-command.ts"),
  resume: () => import("./cli/resume-command.ts"),
  validate: () => import("./cli/validate-command.ts"),
  graph: () => import("./cli/graph-command.ts"),
  clean: () => import("./cli/clean-command.ts"),
  checks: () => import("./cli/checks-command.ts"),
  stats: () => import("./cli/stats-command.ts"),
  plan: () => import("./cli/plan-command.ts"),
  worker: () => import("./cli/worker-command.ts"),
  workers: () => import("./cli/workers-command.ts"),
  export: () => import("./cli/export-command.ts"),
  init: () => import("./cli/init-command.ts"),
  completion: () => import("./cli/completion-command.ts"),
  watch: () => import("./cli/watch-command.ts"),
  cancel: () => import("./cli/cancel-command.ts"),
  approve: () => import("./cli/approve-command.ts"),
  reject: () => import("./cli/reject-command.ts"),
  mcp: () => import("./cli/mcp-command.ts"),
};

/** The help texts name the harnesses from their registry: loaded only when help is printed. */
const help = () => import("./cli/help.ts");

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // No command is a usage error: the help goes where errors go, so `vouch | cmd` reads nothing.
    io.err(`${(await help()).MAIN_HELP}\n`);
    return EXIT.usage;
  }
  // Shell completion's own question (hidden, ADR 0070): before --help, which a typed line may hold.
  if (name === "__complete") return (await import("./cli/complete-command.ts")).completeCommand(rest, io);
  if (name === "--help" || name === "-h" || name === "help") {
    const { COMMAND_HELP, MAIN_HELP } = await help();
    const topic = name === "help" ? rest[0] : undefined;
    io.out(`${(topic && COMMAND_HELP[topic]) || MAIN_HELP}\n`);
    return EXIT.passed;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    io.out(`${versionLine()}\n`);
    return EXIT.passed;
  }
  const load = COMMANDS[name];
  if (!load) {
    const commands = Object.keys((await help()).COMMAND_HELP);
    const { didYouMean } = await import("./engine/graph/did-you-mean.ts");
    // Quoted as JSON: a control character shows as \u001b, never acts, and never hides in the name.
    const shown = sanitize(JSON.stringify(name.slice(0, 80)));
    io.err(`vouch: unknown command ${shown}${didYouMean(name, commands)} (commands: ${commands.join(", ")})\nsee: vouch --help\n`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    const { COMMAND_HELP, MAIN_HELP } = await help();
    io.out(`${COMMAND_HELP[name] ?? MAIN_HELP}\n`);
    return EXIT.passed;
  }
  jitForCommand(name); // `run` and the other long commands get the JIT's normal policy (ADR 0031)
  try {
    const command = (await load()).default;
    return await command(rest, io);
  } catch (e) {
    return reportError(e, io);
  }
}

export function reportError(e: unknown, io: CliIO): number {
  if (e instanceof VouchError) {
    // Messages quote what the user gave (keys, values, paths, run ids): no control character of theirs is printed.
    if (e instanceof GraphInvalidError) for (const p of e.problems) io.err(sanitize(formatProblem(p)));
    io.err(sanitize(`vouch: ${e.message}\n`));
    if (e.hint) io.err(sanitize(`hint: ${e.hint}\n`));
    return e.exitCode;
  }
  const err = e as Error;
  io.err(`vouch: internal error: ${err?.message ?? String(e)}\n`);
  if (io.env.VOUCH_DEBUG) io.err(`${err?.stack ?? ""}\n`);
  else io.err("hint: this is a bug in vouch; run again with VOUCH_DEBUG=1 for the stack and report it\n");
  return EXIT.error;
}

if (import.meta.main) {
  // `vouch --json | head` closes stdout early (EPIPE on the next write): leave quietly.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") stdoutClosed();
  });
  // stderr carries messages for people: a reader that went away must not change
  // the exit code (Bun ends an unhandled EPIPE with exit 1, "failed").
  process.stderr.on("error", () => {});
  const code = await main(process.argv.slice(2), processIO());
  process.exitCode = code;
}
