// The real AgentRunner port (src/engine/ports.ts): picks the adapter by
// assignment.harness from the registry, refuses again at run time (empty
// prompt, missing cwd: nothing starts), plays a replay in process, and hands
// every other sitting to runSitting (sitting.ts), which runs the adapter's
// command through runProcess and reads its stdout with the adapter's parser.
import type { AgentAssignment, AgentHooks, AgentPlan, AgentRunner, Refusal, Sitting } from "../../engine/ports.ts";
import type { CapName } from "../../engine/events.ts";
import { runProcess as realRunProcess } from "../process.ts";
import { ProcessSupervisor } from "../process-registry.ts";
import type { Confiner } from "../sandbox/confine.ts";
import { fileLimits } from "../read-limited.ts";
import { commandArgvFromEnv } from "./command/adapter.ts";
import { DEFAULT_BACKSTOP, type BackstopMargins } from "./overruns.ts";
import { refuse } from "./refuse.ts";
import { HARNESSES, harnessesKeeping, PROCESS_ADAPTERS, type ProcessHarnessName } from "./registry.ts";
import { FixtureFolder } from "./replay/folder.ts";
import { playReplay, replayFolderProblem } from "./replay/play.ts";
import { notRun } from "../../engine/not-run.ts";
import { agentProgram, missingProgram } from "./program-on-path.ts";
import { runSitting, type RunProcess } from "./sitting.ts";
import type { HarnessAdapter, HarnessDescriptor } from "./types.ts";

export type { RunProcess };

export interface AgentRunnerOptions {
  /** vouch's own environment; children get buildChildEnv(parentEnv, passEnv). */
  parentEnv: Record<string, string | undefined>;
  /** Folder of replay fixtures (the replay harness refuses without one). */
  replayDir?: string;
  /** Pause between replayed lines, so a live UI shows progress. Default 0. */
  replayDelayMs?: number;
  /** Margins past a native cap before the engine kills; null: no backstop on
   *  native caps (supervised caps are always kept). Default DEFAULT_BACKSTOP. */
  backstop?: BackstopMargins | null;
  /** SIGTERM-to-SIGKILL grace for the process group. */
  graceMs?: number;
  /** How long a sitting that reported its result may take to exit after a cancel
   *  (default REPORTED_EXIT_GRACE_MS; tests shorten it). */
  reportedExitGraceMs?: number;
  /** The program of the `command` harness (default: VOUCH_COMMAND from parentEnv). */
  commandArgv?: string[];
  /** Replace adapters (tests, the conformance kit's broken doubles). */
  adapters?: Partial<Record<ProcessHarnessName, HarnessAdapter>>;
  /** Replace the spawn seam (tests only). */
  runProcess?: RunProcess;
  /** Owns the sittings' processes (the session's). Default: one of this runner's own. */
  supervisor?: ProcessSupervisor;
  /** Seals the sittings the engine asks to seal (ADR 0040). Absent: such a sitting does not start. */
  confiner?: Confiner;
}

/** How long a sitting that has already reported its result may take to exit after a cancel. */
export const REPORTED_EXIT_GRACE_MS = 5_000;
export { MAX_STREAM_LINE, SITTING_STDERR_BYTES } from "./sitting.ts";

export function createAgentRunner(opts: AgentRunnerOptions): AgentRunner {
  const adapters: Record<ProcessHarnessName, HarnessAdapter> = { ...PROCESS_ADAPTERS, ...opts.adapters };
  const processAdapter = (name: string): HarnessAdapter | undefined =>
    Object.hasOwn(adapters, name) ? adapters[name as ProcessHarnessName] : undefined;
  // In the registry's order, a replaced adapter in its place; looked up by name, never by key (a
  // hostile name such as "constructor" finds no harness).
  const descriptors: HarnessDescriptor[] = HARNESSES.map((h) => processAdapter(h.name) ?? h);
  const commandArgv = opts.commandArgv ?? commandArgvFromEnv(opts.parentEnv);
  const fixtures = new FixtureFolder();
  const refusePlan = (plan: AgentPlan): Refusal[] => {
    const harness = descriptors.find((d) => d.name === plan.harness);
    if (!harness) return [unknownHarness(plan.harness, descriptors)];
    const alternatives = (cap: CapName) => harnessesKeeping(cap, descriptors).filter((n) => n !== harness.name);
    const out = refuse(harness, plan, { alternatives });
    const unready =
      harness.name === "replay" ? replayFolderProblem(opts.replayDir, fixtures) : processAdapter(harness.name)?.unready?.({ commandArgv });
    if (unready) out.push({ harness: harness.name, field: "harness", message: `harness "${harness.name}": ${unready}` });
    // The real spawn seam resolves the program; a test that replaces it brings no program.
    const program = agentProgram(harness, plan, commandArgv);
    const missing = unready || opts.runProcess || plan.elsewhere ? null : missingProgram(program, opts.parentEnv);
    if (missing) out.push({ harness: harness.name, field: program.field, message: `harness "${harness.name}": ${missing}` });
    return out;
  };
  const sittingContext = {
    commandArgv,
    margins: opts.backstop === undefined ? DEFAULT_BACKSTOP : opts.backstop,
    runProcess: opts.runProcess ?? realRunProcess,
    parentEnv: opts.parentEnv,
    graceMs: opts.graceMs,
    reportedExitGraceMs: opts.reportedExitGraceMs ?? REPORTED_EXIT_GRACE_MS,
    supervisor: opts.supervisor ?? new ProcessSupervisor(),
    ...(opts.confiner ? { confiner: opts.confiner } : {}),
  };

  return {
    refuse: refusePlan,
    async run(a: AgentAssignment, hooks: AgentHooks): Promise<Sitting> {
      const refusals = refusalsAtRunTime(refusePlan, a);
      if (refusals.length > 0) return notRun("unavailable", refusals.map((r) => r.message).join("; "));
      if (hooks.signal.aborted) return notRun("cancelled", "cancelled before the sitting started");
      if (a.harness === "replay") {
        // A fixture is read like an input file: regular files only, at most VOUCH_MAX_INPUT_BYTES.
        const limits = fileLimits(opts.parentEnv);
        return playReplay(a, hooks, { dir: opts.replayDir!, delayMs: opts.replayDelayMs ?? 0, maxBytes: limits.inputBytes, fixtures });
      }
      return runSitting(adapters[a.harness], a, hooks, sittingContext);
    },
  };
}

function unknownHarness(name: string, known: readonly HarnessDescriptor[]): Refusal {
  return { harness: name, field: "harness", message: `unknown harness "${name}": use one of ${known.map((h) => h.name).join(", ")}` };
}

function refusalsAtRunTime(refusePlan: (p: AgentPlan) => Refusal[], a: AgentAssignment): Refusal[] {
  return refusePlan({
    node: a.node,
    harness: a.harness,
    caps: a.caps,
    model: a.model,
    tools: a.tools,
    permissionMode: a.permissionMode,
    prompt: a.prompt,
    cwd: a.cwd,
    ...(a.acp !== undefined ? { acp: a.acp } : {}),
  });
}
