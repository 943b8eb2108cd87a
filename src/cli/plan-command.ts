// `vouch plan GOAL --checks FILE`: a model writes a graph for GOAL through the
// planner graph (graphs/plan.yaml, recorded in the ledger like any run); vouch
// makes it a planned graph naming the user's library, validates it (errors quoted
// back for another attempt), shows it, writes it, and with --run runs it.
// `--check-answer FILE` is the planner's own check (docs/plan.md).
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { EXIT, GraphInvalidError, UsageError, formatProblem } from "../engine/errors.ts";
import { checkedLedgerHome, openLedger } from "../ledger/index.ts";
import { fileLimits, readLimited } from "../spawn/read-limited.ts";
import { sanitize } from "../tui/text.ts";
import { parseCommandArgs, positiveInt } from "./args.ts";
import { sha256 } from "./graph-file.ts";
import { loadGraph } from "../engine/graph/loader.ts";
import type { HarnessName } from "../engine/ports.ts";
import { checksReader, planLibrary, type PlanLibrary } from "./plan/library.ts";
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
  const answer = answerText(
    new TextDecoder().decode(
      readLimited(abs(io, values["check-answer"]!), {
        what: "answer file",
        maxBytes: fileLimits(io.env).inputBytes,
        raise: "set VOUCH_MAX_INPUT_BYTES to read a larger answer",
      }),
    ),
  );
  const checked = checkAnswer(answer, abs(io, values.output), planLibrary(io, values.checks).files, checksReader(io));
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
  if (values.output === undefined && existsSync(file))
    throw new UsageError(
      `plan.yaml exists in this folder: vouch plan does not overwrite it unless told`,
      "name the file with -o FILE (an existing one is then replaced)",
    );
  try {
    mkdirSync(dirname(file), { recursive: true });
    accessSync(dirname(file), constants.W_OK);
    if (existsSync(file) && !statSync(file).isFile()) throw new Error("it is not a regular file");
  } catch (e) {
    throw new UsageError(
      `-o ${values.output ?? "plan.yaml"}: the plan cannot be written there (${(e as Error).message})`,
      "name a file in a folder you can write",
    );
  }
  return file;
}

interface PlanSpec {
  values: Values;
  goal: string;
  attempts: number;
  /** --checks as given, absolute (the planner's check reads the library from it again). */
  checksArg: string;
  library: PlanLibrary;
  planFile: string;
  inputs: Record<string, string>;
  harness: HarnessName;
  passEnv: string[];
  budgetUsd: number | undefined;
  wallMs: number | undefined;
}

/** Every usage error before anything is written or asked. */
function planSpec(io: CliIO, values: Values, positionals: string[]): PlanSpec {
  if (positionals.length !== 1 || positionals[0]!.trim() === "")
    throw new UsageError("plan needs one GOAL (quote it)", 'usage: vouch plan "GOAL" --checks FILE [options]; see: vouch plan --help');
  if (values.checks === undefined)
    throw new UsageError(
      "plan needs --checks FILE: the check library a planned graph may use (its only commands)",
      "see: vouch checks --help; an example: examples/sample-repo/vouch.checks.yaml",
    );
  if (values.run && !values.yes && !io.stdinIsTTY)
    throw new UsageError(
      "--run without --yes asks before running, and there is no terminal to ask on",
      "add --yes to run the plan without asking",
    );
  if (io.env.VOUCH_LEDGER !== undefined && io.env.VOUCH_LEDGER !== "")
    throw new UsageError(
      "vouch plan reads the planner's answer from the ledger: it cannot run with VOUCH_LEDGER set",
      "unset VOUCH_LEDGER",
    );
  return {
    values,
    goal: positionals[0]!,
    attempts: positiveInt("--attempts", values.attempts) ?? 2,
    checksArg: abs(io, values.checks),
    library: planLibrary(io, values.checks),
    planFile: planFileOf(io, values),
    inputs: parseInputs(values.input ?? [], io.cwd, fileLimits(io.env).inputBytes),
    harness: harnessFlag(values.harness) ?? "claude",
    passEnv: passEnvFlag(values["pass-env"]),
    budgetUsd: positiveNumber("--budget", values.budget),
    wallMs: durationFlag("--wall", values.wall),
  };
}

/** The planner run (graphs/plan.yaml), recorded like any run; its graph file is kept
 *  under the ledger home, written once the run has its id, so it can be shown and resumed. */
async function runPlanner(
  io: CliIO,
  spec: PlanSpec,
  replayDir: string | undefined,
): Promise<{ code: number; runId: string; home: string }> {
  const home = checkedLedgerHome(io.env, io.cwd);
  const text = plannerGraphText(spec.harness, spec.attempts);
  const loaded = loadGraph("graphs/plan.yaml", text);
  if (!loaded.graph) throw new GraphInvalidError(loaded.problems); // a bug in vouch: the planner is built in
  // The paths the check reads first (see graphs/plan.yaml).
  const inputs = {
    vouch: process.execPath,
    checks_file: spec.checksArg,
    plan_file: spec.planFile,
    goal: spec.goal,
    language: languageText(),
    rules: plannedRules(),
    library: libraryText(spec.library.checks),
    given: givenText(spec.inputs),
  };
  const fileOf = (id: string) => join(home, "planner", `${id}.yaml`);
  const draft = {
    runId: newRunId(),
    graph: loaded.graph,
    graphPath: fileOf("new"),
    graphDigest: sha256(text),
    inputs,
    baseDir: io.cwd,
    passEnv: spec.passEnv,
    version,
    harness: spec.harness,
    ...(spec.budgetUsd !== undefined ? { budgetUsd: spec.budgetUsd } : {}),
    ...(spec.wallMs !== undefined ? { wallMs: spec.wallMs } : {}),
  };
  preflightRun(draft, io.env, replayDir);
  const ledger = openLedger({ home, onNotice: io.err });
  const lock = ledger.claimNewRun(() => newRunId());
  mkdirSync(join(home, "planner"), { recursive: true, mode: 0o700 });
  writeFileSync(fileOf(lock.runId), text, { mode: 0o600 });
  const options = { ...draft, runId: lock.runId, graphPath: fileOf(lock.runId) };
  const code = await runSession({ io, flags: { plain: true }, ledger, lock, options, ...(replayDir !== undefined ? { replayDir } : {}) });
  return { code, runId: lock.runId, home };
}

const planCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("plan", args, PLAN_OPTIONS);
  if (values["check-answer"] !== undefined) return checkAnswerCommand(io, values);
  const spec = planSpec(io, values, positionals);
  const replayDir = values["replay-dir"] !== undefined ? replayDirFor("", values["replay-dir"], io.cwd) : undefined;
  const { code, runId, home } = await runPlanner(io, spec, replayDir);
  if (code !== EXIT.passed && code !== EXIT.failed) return code; // error, paused, interrupted: said by the run
  const answer = lastAnswer(home, runId, PLANNER_NODE, io);
  if (answer === undefined) {
    io.err(`vouch: the planner gave no answer (run ${runId}): see vouch show ${runId}\n`);
    return EXIT.error;
  }
  // vouch decides, not the run's status: the last answer is checked again here.
  const checked = checkAnswer(answer.text, spec.planFile, spec.library.files, checksReader(io));
  const problems = problemsOf(checked.loaded);
  if (problems.length > 0) {
    for (const p of problems) io.err(sanitize(formatProblem(p)));
    io.err(
      `vouch: after ${answer.attempt} attempt${answer.attempt === 1 ? "" : "s"} the planner's graph is still not valid (${problems.length} problem${problems.length === 1 ? "" : "s"} above; run ${runId}); nothing was written\n`,
    );
    return EXIT.usage;
  }
  writeFileSync(spec.planFile, checked.text);
  const shown = showPlan(io, {
    ...spec,
    checksFiles: spec.library.files,
    harness: values.harness === undefined ? undefined : spec.harness,
    replayDir,
  });
  if (!values.run || shown !== EXIT.passed) return shown; // a dry-run refusal: it would not start
  if (!values.yes && !(await approved(io))) {
    io.err("vouch: not run; the plan is written, run it later with vouch run\n");
    return EXIT.passed;
  }
  const runCommand = (await import("./run-command.ts")).default;
  return runCommand(runArgs(spec.planFile, values), io);
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
