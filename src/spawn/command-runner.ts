// The CommandRunner port (src/engine/ports.ts): shell checks and script nodes,
// through the same seam as every other process (runProcess), with the child
// environment from buildChildEnv and the data handed over as files.
// One call = one check: the engine runs all of a node's checks and aggregates.
import type { CheckOutcome, CheckSpec, CommandContext, CommandRunner, ScriptOutcome, ScriptSpec } from "../engine/ports.ts";
import { CHECK_TIMEOUT_CEILING_MS, formatDuration } from "../engine/graph/duration.ts";
import { CommandSpecError, SpawnError } from "../engine/errors.ts";
import { shellCouldNotRun } from "../engine/verdict/could-not-run.ts";
import { buildChildEnv, childEnvBase } from "./child-env.ts";
import { describeExpect, expectProblem, judgeCheck } from "./expect.ts";
import { HandoverStore } from "./handover-files.ts";
import { runProcess } from "./process.ts";
import { DEFAULT_KEEP_BYTES } from "./process/drain.ts";
import { ProcessSupervisor } from "./process-registry.ts";
import type { Command, ProcessResult } from "./process-types.ts";
import { notStarted } from "./process/resolve.ts";
import type { Confined, Confiner } from "./sandbox/confine.ts";

export interface CommandRunnerOptions {
  /** vouch's environment (parentEnv()), a snapshot: children get only what buildChildEnv lets
   *  through, its allowlisted part built once per runner. */
  parentEnv: Record<string, string | undefined>;
  /** Where the private handover directories are made. Default: the system temp dir. */
  tmpRoot?: string;
  /** Bytes kept of each stream (a script's stdout uses its own keepStdoutBytes). Default 64 KiB. */
  keepBytes?: number;
  /** SIGTERM to SIGKILL. Default runProcess's (2 s). */
  graceMs?: number;
  /** Owns the processes and handover folders (the session's). Default: one of this runner's own. */
  supervisor?: ProcessSupervisor;
  /** Seals the commands the engine asks to seal (ADR 0040). Absent: such a command does not start. */
  confiner?: Confiner;
}

/** A CommandRunner its owner closes at the end of the session (the handover folder goes). */
export interface ClosableCommandRunner extends CommandRunner {
  close(): Promise<void>;
}

export function createCommandRunner(opts: CommandRunnerOptions): ClosableCommandRunner {
  const { parentEnv, tmpRoot, graceMs } = opts;
  const keepBytes = opts.keepBytes ?? DEFAULT_KEEP_BYTES;
  const supervisor = opts.supervisor ?? new ProcessSupervisor();
  const handovers = new HandoverStore(supervisor, tmpRoot);
  const envBase = childEnvBase(parentEnv); // parentEnv is a snapshot (parentEnv()): built once

  /** Runs one command with the handover files in place (sealed when the engine asks); lets go of them after. */
  async function run(command: Command, ctx: CommandContext, wallMs: number, stdinState: boolean, keepStdout = keepBytes) {
    const handover = handovers.acquire({ state: ctx.state, item: ctx.item, output: ctx.output, inputs: ctx.inputs });
    let sealed: Confined | undefined;
    try {
      const { env } = buildChildEnv(parentEnv, ctx.passEnv, { ...ctx.vars, ...handover.vars }, envBase);
      if (ctx.seal) {
        const c = opts.confiner ? await opts.confiner.open(ctx.seal, env) : { error: "no sandbox was set up for this session" };
        if ("error" in c) return notStarted("spawn_failed", 0, `could not seal the command: ${c.error}`);
        sealed = c;
      }
      return await runProcess(command, {
        cwd: ctx.cwd,
        ...(sealed ? { env: sealedEnv(sealed, ctx), sandbox: sealed.spec } : { env }),
        wallMs,
        signal: ctx.signal,
        // The state file the handover wrote (the same bytes): no memfd per script.
        ...(stdinState ? { stdinFile: handover.vars.VOUCH_STATE_FILE! } : {}),
        keepBytes: keepStdout,
        keepStderrBytes: keepBytes,
        ...(graceMs === undefined ? {} : { graceMs }),
        supervisor,
      });
    } finally {
      handover.release();
      await sealed?.release();
    }
  }

  return {
    close: () => handovers.close(),
    async runCheck(check: CheckSpec, ctx: CommandContext): Promise<CheckOutcome> {
      requireTimeout(`check "${check.name}"`, check.timeoutMs, CHECK_TIMEOUT_CEILING_MS);
      const problem = expectProblem(check.expect);
      if (problem) throw new CommandSpecError(`check "${check.name}": ${problem}`, "fix the expect: field of the check");
      const r = await run({ shell: check.run }, ctx, check.timeoutMs, false);
      if (r.terminationReason === "spawn_failed") {
        // Not evidence either way: the check never ran (ERROR, not FAIL).
        const hint = r.spawnError?.includes("E2BIG")
          ? "pass large data through files (VOUCH_INPUT_<NAME>_FILE, VOUCH_STATE_FILE), not the environment"
          : "check the node's cwd";
        throw new SpawnError(`check "${check.name}" could not start: ${r.spawnError}`, hint);
      }
      return checkOutcome(check, r, keepBytes);
    },

    async runScript(script: ScriptSpec, ctx: CommandContext): Promise<ScriptOutcome> {
      requireTimeout(`script of node "${ctx.node}"`, script.timeoutMs, Number.POSITIVE_INFINITY);
      const command = scriptCommand(script, ctx.node);
      return scriptOutcome(await run(command, ctx, script.timeoutMs, true, script.keepStdoutBytes));
    },
  };
}

/** A sealed command's environment; a sealed check's HOME is its scratch folder too (ADR 0043): it writes nothing of yours. */
function sealedEnv(sealed: Confined, ctx: CommandContext): Record<string, string> {
  return ctx.checkTree && sealed.env.TMPDIR ? { ...sealed.env, HOME: sealed.env.TMPDIR } : sealed.env;
}

/** A check's outcome from its process: judged by its expect, and marked not run when the shell could not run it. */
function checkOutcome(check: CheckSpec, r: ProcessResult, keepBytes: number): CheckOutcome {
  const timedOut = r.terminationReason === "wall";
  const judgement =
    r.terminationReason === "cancelled"
      ? { passed: false, reason: "cancelled" }
      : judgeCheck(check.expect, {
          exit: r.exit,
          signal: r.signal,
          timedOut,
          timeoutMs: check.timeoutMs,
          stdout: r.stdoutTail,
          stderr: r.stderrTail,
          stdoutBytes: r.stdoutBytes,
          stdoutTruncated: r.stdoutBytes > keepBytes,
        });
  // The shell's own 126/127 (not executable, not found): the check's command never ran;
  // a signal vouch did not send (the OOM killer, a crash): it never finished. Either is
  // no evidence either way (ERROR, not FAIL) — unless that status was expected (ADR 0049).
  const cutOff = r.signal !== null && r.terminationReason === "exit";
  const notRun = !judgement.passed && !timedOut && (shellCouldNotRun(r.exit) !== null || cutOff);
  return {
    name: check.name,
    passed: judgement.passed,
    expect: describeExpect(check.expect),
    ...(judgement.reason === undefined ? {} : { reason: judgement.reason }),
    ...(notRun ? { notRun: true } : {}),
    exit: r.exit,
    signal: r.signal,
    timedOut,
    durationMs: r.wallMs,
    stdoutTail: r.stdoutTail,
    stderrTail: r.stderrTail,
    truncated: r.truncated,
  };
}

/** What the engine sees of a script's process (ScriptOutcome): the seam's own measures left out. */
function scriptOutcome(r: ProcessResult): ScriptOutcome {
  return {
    exit: r.exit,
    signal: r.signal,
    terminationReason: r.terminationReason,
    wallMs: r.wallMs,
    stdoutTail: r.stdoutTail,
    stderrTail: r.stderrTail,
    stdoutBytes: r.stdoutBytes,
    stderrBytes: r.stderrBytes,
    truncated: r.truncated,
    ...(r.spawnError === undefined ? {} : { spawnError: r.spawnError }),
  };
}

function requireTimeout(what: string, ms: number, ceiling: number): void {
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new CommandSpecError(`${what}: timeout must be greater than zero, got ${ms}`, 'write a duration like "90s" or "2m"');
  }
  if (ms > ceiling) {
    throw new CommandSpecError(
      `${what}: timeout ${formatDuration(ms)} is over the ceiling of ${formatDuration(ceiling)}`,
      "split the check, or run the long command as a script node",
    );
  }
}

function scriptCommand(script: ScriptSpec, node: string): Command {
  if (script.run !== undefined && script.argv !== undefined) {
    throw new CommandSpecError(`script of node "${node}": give run or argv, not both`);
  }
  if (script.run !== undefined) return { shell: script.run };
  if (script.argv !== undefined) return { argv: script.argv };
  throw new CommandSpecError(`script of node "${node}": nothing to run (no run and no argv)`);
}
