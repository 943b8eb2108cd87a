// `vouch resume RUN`: run again only what did not pass, keeping the outputs of
// what passed (docs/architecture.md §8). Refuses a live run, a passed run, and a graph file
// that changed since (unless --force). --approve/--reject decide an approval.
import { UsageError, ResumeRefusedError } from "../engine/errors.ts";
import { priorFromEvents } from "../engine/run.ts";
import { priorDecisions, redecided, standingRejections } from "../engine/run/decisions.ts";
import { checkedLedgerHome, openLedger } from "../ledger/index.ts";
import { parseCommandArgs } from "./args.ts";
import { readGraphFile } from "./graph-file.ts";
import { walkNodes } from "../engine/graph/graph-walk.ts";
import { durationFlag, harnessFlag, notifyTargets, replayDirFor } from "./run-command.ts";
import { preflightRun, runSession } from "./run-session.ts";
import { chooseExecutor } from "./executor-option.ts";
import { version } from "./version.ts";
import { reportTargets } from "../report/write-report.ts";
import { withReports } from "./run-reports.ts";
import type { Decision } from "../engine/run/decisions.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import type { Command } from "./io.ts";
import { flakyChecksOf } from "./check-history.ts";
import { refuseBadWorkspaces } from "./workspace-check.ts";
import { realGit } from "../workspace/git.ts";
import { sanitize } from "../tui/text.ts";
import type { SandboxMode } from "../engine/sandbox.ts";
import { limitFlags } from "./limit-flags.ts";
import { SESSION_OPTIONS } from "./session-options.ts";
import { probeForRun, sandboxFlag, warnUnsealed } from "./sandbox-option.ts";

const OPTIONS = {
  approve: { type: "string", multiple: true },
  reject: { type: "string", multiple: true },
  force: { type: "boolean" },
  ...SESSION_OPTIONS,
} as const;

/** Approval ids as events name them: a sub-graph's as "review/approve" (ADR 0024). */
function approvalNodes(graph: GraphFile, graphPath: string, subgraphs?: ReadonlyMap<string, GraphFile>): Set<string> {
  return new Set(
    walkNodes(graph, graphPath, subgraphs)
      .filter((w) => w.node.kind === "approval")
      .map((w) => w.id),
  );
}

export function decisionsFrom(
  approve: string[],
  reject: string[],
  graph: GraphFile,
  graphPath = "",
  subgraphs?: ReadonlyMap<string, GraphFile>,
): Map<string, Decision> {
  const approvals = approvalNodes(graph, graphPath, subgraphs);
  const decisions = new Map<string, Decision>();
  for (const [flag, names, decision] of [
    ["--approve", approve, "approve"],
    ["--reject", reject, "reject"],
  ] as const) {
    for (const name of names) {
      if (!approvals.has(name)) {
        const known = [...approvals].join(", ") || "none";
        throw new UsageError(`${flag} ${name}: the graph has no approval node "${name}" (approval nodes: ${known})`);
      }
      if (decisions.has(name) && decisions.get(name) !== decision) throw new UsageError(`${name} cannot be both approved and rejected`);
      decisions.set(name, decision);
    }
  }
  return decisions;
}

/** A decision the ledger already holds is final: --approve/--reject naming it again is refused. */
function refuseRedecision(
  decisions: Map<string, Decision>,
  prior: ReturnType<typeof priorDecisions>,
  runId: string,
  graphPath: string,
): void {
  const again = redecided(decisions, prior);
  if (!again) return;
  const where = again.branch ? ` (in ${again.branch.map} #${again.branch.index})` : "";
  throw new ResumeRefusedError(
    `${again.node} was already ${again.decision === "approve" ? "approved" : "rejected"} at ${again.at}${where} in run ${runId}: a decision recorded in the ledger is final`,
    `to decide again, start a new run: vouch run ${graphPath}`,
  );
}

/** What is left of the run budget the first session set (earlier sessions' spending counts
 *  against it); undefined when the run has none; refused when nothing is left. */
export function budgetLeft(budgetUsd: number | null, spentUsd: number, runId: string): number | undefined {
  if (budgetUsd === null) return undefined;
  const left = budgetUsd - spentUsd;
  if (left <= 0) {
    throw new ResumeRefusedError(
      `run ${runId} has spent $${spentUsd.toFixed(4)} of its $${budgetUsd} budget: nothing is left to resume with`,
      `start a new run with a larger --budget`,
    );
  }
  return left;
}

function sandboxOf(flag: string | undefined, recorded: SandboxMode | undefined): { sandbox?: SandboxMode } {
  const mode = sandboxFlag(flag) ?? recorded;
  return mode !== undefined ? { sandbox: mode } : {};
}

const resumeCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("resume", args, OPTIONS);
  if (positionals.length !== 1) throw new UsageError("resume takes one run: an id, a unique prefix of one, or last", "see: vouch runs");
  if (values.json && values.plain) throw new UsageError("--json and --plain exclude each other");
  const replayDelayMs = values["replay-delay"] === undefined ? undefined : durationFlag("--replay-delay", values["replay-delay"]);
  const reports = reportTargets(values.report, io.cwd);
  const limits = limitFlags(values);

  const ledger = openLedger({ home: checkedLedgerHome(io.env, io.cwd), onNotice: io.err });
  let released = false;
  try {
    const runId = ledger.resolveRun(positionals[0]!);
    const recorded = ledger.runFacts(runId);
    const graphFile = readGraphFile(recorded.graph_path, io.cwd, io.env);
    const ticket = ledger.resumeCheck(runId, graphFile.digest, values.force === true, graphFile.subgraphs.size > 0);
    try {
      const decisions = decisionsFrom(values.approve ?? [], values.reject ?? [], graphFile.graph, graphFile.path, graphFile.subgraphs);
      const events = ledger.runEvents(runId);
      const prior = priorDecisions(events);
      refuseRedecision(decisions, prior, runId, recorded.graph_path);
      const resume = priorFromEvents(events);
      // Relative paths (cwd, inputs such as project_dir) resolve where the run first started.
      const started = events.find((e) => e.type === "run.started");
      const baseDir = (started?.type === "run.started" && started.base_dir) || io.cwd;
      // The run budget is the whole run's, as the first session set it: what earlier
      // sessions spent counts against it.
      const caps = started?.type === "run.started" ? started.caps : ticket.caps;
      await refuseBadWorkspaces(recorded.graph_path, graphFile.text, graphFile.graph, baseDir, realGit, (t) => io.err(sanitize(t)), runId);
      const budgetUsd = budgetLeft(caps.budget_usd, recorded.cost_usd, runId);
      const replayDir = replayDirFor(graphFile.path, values["replay-dir"], io.cwd);
      const options = {
        runId,
        graph: graphFile.graph,
        graphPath: graphFile.path,
        graphDigest: graphFile.digest,
        subgraphs: graphFile.subgraphs,
        inputs: ticket.inputs,
        baseDir,
        concurrency: ticket.concurrency,
        passEnv: ticket.passEnv,
        version,
        resume,
        flakyChecks: flakyChecksOf(ledger, graphFile.graph, graphFile.subgraphs),
        ...limits,
        ...(budgetUsd !== undefined ? { budgetUsd } : {}),
        ...(caps.wall_ms !== null ? { wallMs: caps.wall_ms } : {}),
        ...(ticket.harness !== null ? { harness: harnessFlag(ticket.harness)! } : {}),
        // --sandbox of this session, else the one the run started with.
        ...sandboxOf(values.sandbox, started?.type === "run.started" ? started.sandbox : undefined),
      };
      const { probe, sandboxAvailability } = await probeForRun(options, io.env);
      Object.assign(options, { sandboxAvailability });
      // refusals and input errors: nothing starts, the lock is let go below
      warnUnsealed(preflightRun(options, io.env, replayDir), io.err);
      // Branches ran on workers: re-attach to their jobs by id (ADR 0026).
      const recordedExecutor = started?.type === "run.started" ? started.executor : undefined;
      const cx = { env: io.env, cwd: io.cwd, err: io.err, fleetKeyFile: values["fleet-key-file"] };
      const chosen = await chooseExecutor(values.executor, graphFile.graph, baseDir, cx, recordedExecutor);
      if (chosen) Object.assign(options, chosen);
      released = true; // runSession owns the lock and the ledger from here
      return await withReports(io, runId, reports, () =>
        runSession({
          io,
          flags: { json: values.json, plain: values.plain },
          ledger,
          lock: ticket.lock,
          decisions,
          standing: standingRejections(prior),
          waitApprovals: values["wait-approvals"] === true,
          notify: notifyTargets(graphFile.graph.notify, values, io),
          options,
          probe,
          ...(replayDir !== undefined ? { replayDir } : {}),
          ...(replayDelayMs !== undefined ? { replayDelayMs } : {}),
        }),
      );
    } finally {
      if (!released) ticket.lock.release();
    }
  } finally {
    if (!released) ledger.close();
  }
};
export default resumeCommand;
