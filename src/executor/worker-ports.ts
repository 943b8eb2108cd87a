// The ports a branch runs with on a worker, whatever transport brought its job
// (ADR 0037): the real harnesses and commands under the worker's one process
// supervisor, git confined to the worker's clone, and none of what stays on the
// coordinator (approvals, merge nodes).
import { systemClock } from "../engine/clock.ts";
import type { CommandRunner, GitPort, Ledger } from "../engine/ports.ts";
import { refusingApprovals, refusingGit, refusingMerge } from "../engine/ports.ts";
import type { RunPorts } from "../engine/run/types.ts";
import { createAgentRunner } from "../spawn/harness/agent-runner.ts";
import { createCommandRunner, type ClosableCommandRunner } from "../spawn/command-runner.ts";
import type { ProcessSupervisor } from "../spawn/process-registry.ts";
import type { Confiner } from "../spawn/sandbox/confine.ts";

export interface WorkerCommandsOptions {
  worker: string;
  env: Record<string, string | undefined>;
  supervisor: ProcessSupervisor;
  confiner?: Confiner;
}

/** A command runner of one run on the worker (ADR 0090, kept by WorkerRunners): one handover
 *  folder for the run's jobs instead of a folder made, written and removed per job (a fifth of
 *  a `true` branch's CPU on the worker). Never shared by runs: a sealed process sees its folder. */
export function workerCommands(o: WorkerCommandsOptions): ClosableCommandRunner {
  const sealing = o.confiner ? { confiner: o.confiner } : {};
  return createCommandRunner({ parentEnv: { ...o.env, VOUCH_WORKER: o.worker }, supervisor: o.supervisor, ...sealing });
}

export interface JobPortsOptions {
  /** The worker's name: commands see VOUCH_WORKER=<name>. */
  worker: string;
  env: Record<string, string | undefined>;
  supervisor: ProcessSupervisor;
  ledger: Ledger;
  /** The job's view of the worker's clone; absent when its branch has no worktree. */
  git?: GitPort;
  /** Seals the job's sittings and scripts (ADR 0040): the worker's one. */
  confiner?: Confiner;
  /** The run's command runner on this worker (workerCommands): WorkerRunners closes it, not the job. */
  commands: CommandRunner;
}

/** Commands a worker runs see VOUCH_WORKER=<name>. */
function withWorkerVar(runner: CommandRunner, name: string): CommandRunner {
  return {
    runCheck: (check, ctx) => runner.runCheck(check, { ...ctx, vars: { ...ctx.vars, VOUCH_WORKER: name } }),
    runScript: (script, ctx) => runner.runScript(script, { ...ctx, vars: { ...ctx.vars, VOUCH_WORKER: name } }),
  };
}

/** One job's ports. */
export function jobPorts(o: JobPortsOptions): RunPorts {
  const env = { ...o.env, VOUCH_WORKER: o.worker };
  const sealing = o.confiner ? { confiner: o.confiner } : {};
  return {
    agents: createAgentRunner({ parentEnv: env, supervisor: o.supervisor, ...sealing }),
    commands: withWorkerVar(o.commands, o.worker),
    clock: systemClock,
    ledger: o.ledger,
    approvals: refusingApprovals,
    git: o.git ?? refusingGit,
    merge: refusingMerge,
  };
}
