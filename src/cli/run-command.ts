// `vouch run GRAPH`: load and validate the graph, refuse what the harnesses
// cannot keep, then run it with the real ports, recorded in the ledger.
import { existsSync, statSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { HARNESS_NAMES } from "../engine/graph/schema.ts";
import { parseDuration } from "../engine/graph/duration.ts";
import { UsageError, formatProblem } from "../engine/errors.ts";
import { sanitize } from "../tui/text.ts";
import type { HarnessName } from "../engine/ports.ts";
import { checkedLedgerHome, openLedger } from "../ledger/index.ts";
import { parseCommandArgs, positiveInt, positiveNumber } from "./args.ts";
import { readGraphFile } from "./graph-file.ts";
import { parseInputs } from "./run-inputs.ts";
import { fileLimits } from "../spawn/read-limited.ts";
import { newRunId } from "./run-id.ts";
import { preflightRun, runSession } from "./run-session.ts";
import { chooseExecutor } from "./executor-option.ts";
import { printPlan } from "./dry-run.ts";
import { version } from "./version.ts";
import { reportTargets } from "../report/write-report.ts";
import { withReports } from "./run-reports.ts";
import type { CliIO, Command } from "./io.ts";
import { flakyChecksOf } from "./check-history.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { flagTargets, graphTargets, notifyOnFlag, type NotifyTarget } from "./notify/targets.ts";
import { refuseBadWorkspaces } from "./workspace-check.ts";
import { didYouMean } from "../engine/graph/did-you-mean.ts";
import { realGit } from "../workspace/git.ts";
import { limitFlags } from "./limit-flags.ts";
import { SESSION_OPTIONS } from "./session-options.ts";
import { probeForRun, sandboxFlag, warnUnsealed } from "./sandbox-option.ts";

export const RUN_OPTIONS = {
  input: { type: "string", short: "i", multiple: true },
  harness: { type: "string" },
  concurrency: { type: "string" },
  budget: { type: "string" },
  wall: { type: "string" },
  "pass-env": { type: "string", multiple: true },
  "dry-run": { type: "boolean" },
  ...SESSION_OPTIONS,
} as const;

export function harnessFlag(value: string | undefined): HarnessName | undefined {
  if (value === undefined) return undefined;
  if (!(HARNESS_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(
      `--harness ${JSON.stringify(value)} is not a harness${didYouMean(value, HARNESS_NAMES)} (harnesses: ${HARNESS_NAMES.join(", ")})`,
      "see: vouch harnesses",
    );
  }
  return value as HarnessName;
}

export function durationFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === null) throw new UsageError(`${flag} takes a duration with a unit, like 90s, 30m or 1h (not "${value}")`);
  if (ms <= 0) throw new UsageError(`${flag} takes a duration greater than zero, like 90s, 30m or 1h (not "${value}")`);
  return ms;
}

/** Fixtures for the replay harness: --replay-dir, else <graph>.replay/ beside the graph when it exists. */
export function replayDirFor(graphPath: string, flag: string | undefined, cwd: string): string | undefined {
  if (flag !== undefined) {
    const dir = join(cwd, flag);
    const abs = flag.startsWith("/") ? flag : dir;
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new UsageError(`--replay-dir ${flag}: no such folder`);
    return abs;
  }
  const beside = join(dirname(graphPath), `${basename(graphPath, extname(graphPath))}.replay`);
  return existsSync(beside) ? beside : undefined;
}

/** The graph's notify: and --notify/--notify-on (ADR 0064); usage errors before anything starts. */
export function notifyTargets(
  graphNotify: GraphFile["notify"],
  values: { notify?: string[]; "notify-on"?: string },
  io: Pick<CliIO, "env" | "err">,
): NotifyTarget[] {
  const flags = flagTargets(values.notify, notifyOnFlag(values["notify-on"]));
  if (values["notify-on"] !== undefined && flags.length === 0)
    throw new UsageError("--notify-on chooses the events of --notify: give --notify TARGET too");
  return [...graphTargets(graphNotify, io.env, (line) => io.err(sanitize(line))), ...flags];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function passEnvFlag(names: string[] | undefined): string[] {
  for (const n of names ?? []) {
    if (!ENV_NAME.test(n)) throw new UsageError(`--pass-env "${n}" is not an environment variable name`);
  }
  return [...new Set(names ?? [])];
}

/** A --pass-env name that is not set passes nothing: say so, the run may be relying on it. */
function warnUnset(names: string[], io: { env: Record<string, string | undefined>; err(text: string): void }): string[] {
  for (const n of names) if (io.env[n] === undefined) io.err(`vouch: --pass-env ${n}: not set in this environment, so no child gets it\n`);
  return names;
}

const runCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("run", args, RUN_OPTIONS);
  if (positionals.length === 0) throw new UsageError("run needs a graph file", "usage: vouch run GRAPH [options]; see: vouch run --help");
  if (positionals.length > 1) throw new UsageError(`run takes one graph file (got ${positionals.length}: ${positionals.join(", ")})`);
  if (values.json && values.plain) throw new UsageError("--json and --plain exclude each other");
  const graphFile = readGraphFile(positionals[0]!, io.cwd, io.env);
  for (const w of graphFile.warnings) io.err(sanitize(formatProblem(w))); // validate's advice, said before the run
  await refuseBadWorkspaces(positionals[0]!, graphFile.text, graphFile.graph, io.cwd, realGit, (t) => io.err(sanitize(t)));
  const inputs = parseInputs(values.input ?? [], io.cwd, fileLimits(io.env).inputBytes);
  const harness = harnessFlag(values.harness);
  const concurrency = positiveInt("--concurrency", values.concurrency);
  const budgetUsd = positiveNumber("--budget", values.budget);
  const wallMs = durationFlag("--wall", values.wall);
  const replayDelayMs = values["replay-delay"] === undefined ? undefined : durationFlag("--replay-delay", values["replay-delay"]);
  const replayDir = replayDirFor(graphFile.path, values["replay-dir"], io.cwd);
  const reports = reportTargets(values.report, io.cwd);
  const limits = limitFlags(values);
  const notify = notifyTargets(graphFile.graph.notify, values, io);
  const sandbox = sandboxFlag(values.sandbox);
  const plain = {
    runId: newRunId(),
    graph: graphFile.graph,
    graphPath: graphFile.path,
    graphDigest: graphFile.digest,
    subgraphs: graphFile.subgraphs,
    inputs,
    baseDir: io.cwd,
    passEnv: warnUnset(passEnvFlag(values["pass-env"]), io),
    version,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(wallMs !== undefined ? { wallMs } : {}),
    ...(harness !== undefined ? { harness } : {}),
    ...(sandbox !== undefined ? { sandbox } : {}),
    ...limits,
  };
  const { probe, sandboxAvailability } = await probeForRun(plain, io.env);
  const draft = { ...plain, sandboxAvailability };
  if (values["dry-run"]) return printPlan(io, draft, { json: values.json === true, ...(replayDir ? { replayDir } : {}) });

  warnUnsealed(preflightRun(draft, io.env, replayDir), io.err);
  // Before the ledger opens: an unreachable Redis is exit 2 and leaves no run behind.
  const chosen = await chooseExecutor(values.executor, graphFile.graph, io.cwd, { ...io, fleetKeyFile: values["fleet-key-file"] });
  let ledger: ReturnType<typeof openLedger>;
  let lock: ReturnType<typeof ledger.claimNewRun>;
  let flakyChecks: ReturnType<typeof flakyChecksOf>;
  try {
    ledger = openLedger({ home: checkedLedgerHome(io.env, io.cwd), onNotice: io.err });
    flakyChecks = flakyChecksOf(ledger, graphFile.graph, graphFile.subgraphs); // the live view marks them (ADR 0067)
    // The ledger gives the id: the drawn one unless another run has it (ADR 0019).
    lock = ledger.claimNewRun(() => newRunId());
  } catch (e) {
    await chosen?.executor.close?.(); // its connection would keep the process alive
    throw e;
  }
  const options = { ...draft, runId: lock.runId, ...chosen, flakyChecks };
  return withReports(io, options.runId, reports, () =>
    runSession({
      io,
      flags: { json: values.json, plain: values.plain },
      ledger,
      lock,
      options,
      waitApprovals: values["wait-approvals"] === true,
      notify,
      probe,
      ...(replayDir !== undefined ? { replayDir } : {}),
      ...(replayDelayMs !== undefined ? { replayDelayMs } : {}),
    }),
  );
};
export default runCommand;
