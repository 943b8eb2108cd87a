// `vouch init` runs each check it wrote once, on the tree as it is, and says
// which pass: a check that already fails before any agent runs is worth knowing
// (an agent would be judged by it too). The checks run the way a graph runs
// them: through the CommandRunner (src/spawn/command-runner.ts, the one process
// seam), judged by the same expect rules, under the check's own timeout, one
// after another (a build and the tests at once would fight over the machine).
// A program that is not on PATH is said as such without starting anything.
import { parseDuration, formatDuration } from "../../engine/graph/duration.ts";
import { findOnPath } from "../../spawn/harness/find-binary.ts";
import { createCommandRunner } from "../../spawn/command-runner.ts";
import { ProcessSupervisor } from "../../spawn/process-registry.ts";
import { VouchError } from "../../engine/errors.ts";
import type { CheckOutcome, CommandRunner } from "../../engine/ports.ts";
import type { NamedCheck } from "./names.ts";

export type Verdict =
  | { check: NamedCheck; result: "passed"; ms: number }
  | { check: NamedCheck; result: "failed"; why: string; tail: string[]; ms: number }
  | { check: NamedCheck; result: "not_run"; why: string };

const TAIL_LINES = 5;

/** The program must be findable before anything starts; a path (./scripts/test) is left to the shell. */
function missingProgram(c: NamedCheck, pathVar: string | undefined): string | null {
  if (c.program === "" || c.program.includes("/")) return null;
  return findOnPath(c.program, pathVar) === null ? `${c.program} not found` : null;
}

function lastLines(o: CheckOutcome): string[] {
  const text = [o.stdoutTail, o.stderrTail].filter((t) => t.trim() !== "").join("\n");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(-TAIL_LINES);
}

export function verdictOf(c: NamedCheck, o: CheckOutcome): Verdict {
  if (o.passed) return { check: c, result: "passed", ms: o.durationMs };
  if (o.notRun) {
    const what = o.exit === 126 ? "not executable" : "not found";
    return { check: c, result: "not_run", why: `${c.program || "its command"} ${what} (exit ${o.exit})` };
  }
  const why = o.timedOut ? `timed out after ${formatDuration(parseDuration(c.timeout) ?? 0)}` : (o.reason ?? `exit ${o.exit}`);
  return { check: c, result: "failed", why, tail: lastLines(o), ms: o.durationMs };
}

async function runOne(runner: CommandRunner, c: NamedCheck, o: RunOnceOptions): Promise<Verdict> {
  try {
    const outcome = await runner.runCheck(
      { name: c.name, run: c.run, expect: c.expect ?? "exit_zero", timeoutMs: parseDuration(c.timeout)! },
      { runId: "init", node: "init", attempt: 1, cwd: o.root, passEnv: [], vars: {}, inputs: [], state: {}, signal: o.signal },
    );
    return verdictOf(c, outcome);
  } catch (e) {
    // The runner's own refusals (it could not start: a vanished folder, E2BIG) are typed; say them.
    if (e instanceof VouchError) return { check: c, result: "not_run", why: e.message };
    throw e;
  }
}

export interface RunOnceOptions {
  root: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  supervisor: ProcessSupervisor;
  /** Called before each check starts, and with its verdict. */
  onStart(c: NamedCheck): void;
  onVerdict(v: Verdict): void;
}

export async function runEachOnce(checks: readonly NamedCheck[], o: RunOnceOptions): Promise<Verdict[]> {
  const runner = createCommandRunner({ parentEnv: o.env, supervisor: o.supervisor });
  const verdicts: Verdict[] = [];
  try {
    for (const c of checks) {
      if (o.signal.aborted) break;
      o.onStart(c);
      const missing = missingProgram(c, o.env.PATH);
      const v: Verdict = missing !== null ? { check: c, result: "not_run", why: missing } : await runOne(runner, c, o);
      if (o.signal.aborted) break; // a check cut off by Ctrl-C is no verdict
      verdicts.push(v);
      o.onVerdict(v);
    }
  } finally {
    await runner.close();
  }
  return verdicts;
}
