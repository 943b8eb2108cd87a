// The ports a branch runs with on a worker, whatever transport brought its job
// (ADR 0037): the real harnesses and commands under the worker's one process
// supervisor, git confined to the worker's clone, and none of what stays on the
// coordinator (approvals, merge nodes).
import { systemClock } from "../engine/clock.ts";
import type { CommandRunner, GitPort, Ledger } from "../engine/ports.ts";
import { refusingApprovals, refusingGit, refusingMerge } from "../engine/ports.ts";
import type { RunPorts } from "../engine/run/types.ts";
import { createAgentRunner } from "../spawn/harness/agent-runner.ts";
import { createCommandRunner } from "../spawn/command-runner.ts";
import type { ProcessSupervisor } from "../spawn/process-registry.ts";
import type { Confiner } from "../spawn/sandbox/confine.ts";

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
}

/** Commands a worker runs see VOUCH_WORKER=<name>. */
function withWorkerVar(runner: CommandRunner, name: string): CommandRunner {
  return {
    runCheck: (check, ctx) => runner.runCheck(check, { ...ctx, vars: { ...ctx.vars, VOUCH_WORKER: name } }),
    runScript: (script, ctx) => runner.runScript(script, { ...ctx, vars: { ...ctx.vars, VOUCH_WORKER: name } }),
  };
}

/** One job's ports; `close` lets go of the job's handover folder. */
export function jobPorts(o: JobPortsOptions): { ports: RunPorts; close(): Promise<void> } {
  const env = { ...o.env, VOUCH_WORKER: o.worker };
  const sealing = o.confiner ? { confiner: o.confiner } : {};
  const commands = createCommandRunner({ parentEnv: env, supervisor: o.supervisor, ...sealing });
  const ports: RunPorts = {
    agents: createAgentRunner({ parentEnv: env, supervisor: o.supervisor, ...sealing }),
    commands: withWorkerVar(commands, o.worker),
    clock: systemClock,
    ledger: o.ledger,
    approvals: refusingApprovals,
    git: o.git ?? refusingGit,
    merge: refusingMerge,
  };
  return { ports, close: () => commands.close() };
}
