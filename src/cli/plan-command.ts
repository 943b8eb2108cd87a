// `vouch plan GOAL --checks FILE`: a model writes a graph for GOAL through the
// planner graph (graphs/plan.yaml, recorded in the ledger like any run); vouch
// makes it a planned graph naming the user's library, validates it (errors quoted
// back for another attempt), shows it, writes it, and with --run runs it.
// `--check-answer FILE` is the planner's own check (docs/plan.md).
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { EXIT, GraphInvalidError, UsageError, formatProblem } from "../engine/errors.ts";
import { loadChecksFile } from "../engine/graph/checks-file.ts";
import { checkedLedgerHome, openLedger } from "../ledger/index.ts";
import { fileLimits, readLimited } from "../spawn/read-limited.ts";
import { sanitize } from "../tui/text.ts";
import { parseCommandArgs, positiveInt } from "./args.ts";
import { readGraphFile, readGraphSource } from "./graph-file.ts";
import type { CliIO, Command } from "./io.ts";
import { checkAnswer, problemsOf } from "./plan/answer.ts";
import { givenText, languageText, libraryText, plannedRules, plannerGraphText, PLANNER_NODE } from "./plan/planner.ts";
import { lastAnswer, showPlan, approved } from "./plan/show.ts";
import { durationFlag, harnessFlag, passEnvFlag, replayDirFor, RUN_OPTIONS } from "./run-command.ts";
import { parseInputs } from "./run-inputs.ts";
import { preflightRun, runSession } from "./run-session.ts";
import { newRunId } from "./run-id.ts";
import { positiveNumber } from "./args.ts";
import { version } from "./version.ts";
import type { ChecksReader } from "../engine/graph/checks-library.ts";
import { InputError } from "../engine/errors.ts";

export const PLAN_OPTIONS = {
  checks: { type: "string" },
  input: RUN_OPTIONS.input,
  output: { type: "string", short: "o" },
  run: { type: "boolean" },
  yes: { type: "boolean" },
  attempts: { type: "string" },
  harness: RUN_OPTIONS.harness,
  "pass-env": RUN_OPTIONS["pass-env"],
  budget: RUN_OPTIONS.budget,
  wall: RUN_OPTIONS.wall,
  "replay-dir": RUN_OPTIONS["replay-dir"],
  "check-answer": { type: "string" },
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof PLAN_OPTIONS>>["values"];

const abs = (io: CliIO, p: string) => (isAbsolute(p) ? p : resolve(io.cwd, p));

function checksReader(io: CliIO): ChecksReader {
  return (file) => {
    try {
      return { text: readGraphSource(file, io.cwd, io.env, "checks file").text };
    } catch (e) {
      if (e instanceof InputError) return { error: e.message, ...(e.hint !== undefined ? { hint: e.hint } : {}) };
      throw e;
    }
  };
}

/** The library --checks names: every check's name and description (problems → exit 2). */
function library(io: CliIO, file: string) {
  const source = readGraphSource(file, io.cwd, io.env, "checks file");
  const loaded = loadChecksFile(file, source.text);
  if (!("checks" in loaded)) throw new GraphInvalidError(loaded.problems);
  return Object.entries(loaded.checks).map(([name, def]) => ({ name, description: def.description ?? null, run: def.run, timeout_ms: null, expect: null, defined_at: loaded.where[name]! }));
}

/** VOUCH_OUTPUT_FILE holds the output as JSON: a text answer is a JSON string. */
function answerText(file: string): string {
  try {
    const v: unknown = JSON.parse(file);
    return typeof v === "string" ? v : file;
  } catch {
    return file;
  }
}

/** The planner's check: is the answer in FILE a valid planned graph? Problems on stdout, exit 1. */
function checkAnswerCommand(io: CliIO, values: Values): number {
  if (values.checks === undefined || values.output === undefined) throw new UsageError("--check-answer needs --checks FILE and -o PLAN");
  const answer = answerText(new TextDecoder().decode(readLimited(abs(io, values["check-answer"]!), { what: "answer file", maxBytes: fileLimits(io.env).inputBytes, raise: "set VOUCH_MAX_INPUT_BYTES to read a larger answer" })));
  const checked = checkAnswer(answer, abs(io, values.output), abs(io, values.checks), checksReader(io));
  const problems = problemsOf(checked.loaded);
  if (problems.length === 0) {
    io.out("the answer is a valid planned graph\n");
    return EXIT.passed;
  }
  io.out("The graph you wrote is not valid. vouch set origin: planned and checks_from, then found:\n");
  for (const p of problems) io.out(sanitize(formatProblem(p)));
  return EXIT.failed;
}

/** Where the plan goes, refused before any sitting when it cannot be written there. */
function planFileOf(io: CliIO, values: Values): string {
  const file = abs(io, values.output ?? "plan.yaml");
  if (values.output === undefined && existsSync(file)) throw new UsageError(`plan.yaml exists in this folder: vouch plan does not overwrite it unless told`, "name the file with -o FILE (an existing one is then replaced)");
  try {
    mkdirSync(dirname(file), { recursive: true });
    accessSync(dirname(file), constants.W_OK);
    if (existsSync(file) && !statSync(file).isFile()) throw new Error("it is not a regular file");
  } catch (e) {
    throw new UsageError(`-o ${values.output ?? "plan.yaml"}: the plan cannot be written there (${(e as Error).message})`, "name a file in a folder you can write");
  }
  return file;
}

const planCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("plan", args, PLAN_OPTIONS);
  if (values["check-answer"] !== undefined) return checkAnswerCommand(io, values);
  if (positionals.length !== 1 || positionals[0]!.trim() === "") throw new UsageError("plan needs one GOAL (quote it)", 'usage: vouch plan "GOAL" --checks FILE [options]; see: vouch plan --help');
  if (values.checks === undefined) throw new UsageError("plan needs --checks FILE: the check library a planned graph may use (its only commands)", "see: vouch checks --help; an example: examples/sample-repo/vouch.checks.yaml");
  const attempts = positiveInt("--attempts", values.attempts) ?? 2;
  const checksFile = abs(io, values.checks);
  const checks = library(io, values.checks);
  const planFile = planFileOf(io, values);
  const inputs = parseInputs(values.input ?? [], io.cwd, fileLimits(io.env).inputBytes);
  const harness = harnessFlag(values.harness) ?? "claude";
  const passEnv = passEnvFlag(values["pass-env"]);
  const budgetUsd = positiveNumber("--budget", values.budget);
  const wallMs = durationFlag("--wall", values.wall);
  if (values.run && !values.yes && !io.stdinIsTTY) throw new UsageError("--run without --yes asks before running, and there is no terminal to ask on", "add --yes to run the plan without asking");

  const home = checkedLedgerHome(io.env, io.cwd);
  const runId = newRunId();
  const plannerFile = join(home, "planner", `${runId}.yaml`);
  const plannerInputs = {
    goal: positionals[0]!, language: languageText(), rules: plannedRules(), library: libraryText(checks), given: givenText(inputs),
    vouch: process.execPath, checks_file: checksFile, plan_file: planFile,
  };
  mkdirSync(join(home, "planner"), { recursive: true, mode: 0o700 });
  writeFileSync(plannerFile, plannerGraphText(harness, attempts), { mode: 0o600 });
  const planner = readGraphFile(plannerFile, io.cwd, io.env);
  const replayDir = values["replay-dir"] !== undefined ? replayDirFor(plannerFile, values["replay-dir"], io.cwd) : undefined;
  const draft = {
    runId, graph: planner.graph, graphPath: planner.path, graphDigest: planner.digest, inputs: plannerInputs, baseDir: io.cwd, passEnv, version, harness,
    ...(budgetUsd !== undefined ? { budgetUsd } : {}), ...(wallMs !== undefined ? { wallMs } : {}),
  };
  preflightRun(draft, io.env, replayDir);
  const ledger = openLedger({ home, onNotice: io.err });
  const lock = ledger.claimNewRun(() => runId);
  const code = await runSession({ io, flags: { plain: true }, ledger, lock, options: { ...draft, runId: lock.runId }, ...(replayDir !== undefined ? { replayDir } : {}) });
  const answer = lastAnswer(home, lock.runId, PLANNER_NODE, io);
  if (code !== EXIT.passed && code !== EXIT.failed) return code; // error, paused, interrupted: said by the run
  if (answer === undefined) {
    io.err(`vouch: the planner gave no answer (run ${lock.runId}): see vouch show ${lock.runId}\n`);
    return EXIT.error;
  }
  const checked = checkAnswer(answer.text, planFile, checksFile, checksReader(io));
  const problems = problemsOf(checked.loaded);
  if (problems.length > 0) {
    for (const p of problems) io.err(sanitize(formatProblem(p)));
    io.err(`vouch: after ${answer.attempt} attempt${answer.attempt === 1 ? "" : "s"} the planner's graph is still not valid (${problems.length} problem${problems.length === 1 ? "" : "s"} above; run ${lock.runId}); nothing was written\n`);
    return EXIT.usage;
  }
  writeFileSync(planFile, checked.text);
  const shown = showPlan(io, { planFile, checksFile, inputs, harness: values.harness === undefined ? undefined : harness, passEnv, budgetUsd, wallMs, replayDir });
  if (!values.run) return shown;
  if (shown !== EXIT.passed) return shown; // the dry run refused something: it would not start
  if (!values.yes && !(await approved(io))) {
    io.err("vouch: not run; the plan is written, run it later with vouch run\n");
    return EXIT.passed;
  }
  const runCommand = (await import("./run-command.ts")).default;
  return runCommand(runArgs(planFile, values), io);
};

/** `vouch run PLAN` with the options plan was given. */
function runArgs(planFile: string, values: Values): string[] {
  const args = [planFile];
  for (const i of values.input ?? []) args.push(`--input=${i}`);
  if (values.harness !== undefined) args.push(`--harness=${values.harness}`);
  for (const n of values["pass-env"] ?? []) args.push(`--pass-env=${n}`);
  if (values.budget !== undefined) args.push(`--budget=${values.budget}`);
  if (values.wall !== undefined) args.push(`--wall=${values.wall}`);
  if (values["replay-dir"] !== undefined) args.push(`--replay-dir=${values["replay-dir"]}`);
  return args;
}
export default planCommand;
