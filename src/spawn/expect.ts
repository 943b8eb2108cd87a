// Pure: judges a finished check against its expectation (docs/graph-language.md) and says
// why in one line. Rules the graph language leaves open are in ADR 0004:
// - empty_output: exit 0 and stdout empty after trimming whitespace; stderr is ignored.
// - output_matches: the regex (multiline: ^ and $ match at lines) is searched in the
//   kept stdout tail, then the kept stderr tail; the exit status is not judged.
// - a check that timed out never passes; one that died of a signal passes only when its
//   expect names the exit a shell reports for that signal (128 + its number), else it
//   did not finish: the command runner marks it could not run (ADR 0049).
import type { Expect } from "../engine/graph/schema.ts";
import { formatDuration } from "../engine/graph/duration.ts";
import { constants } from "node:os";
import { describeExit } from "../engine/verdict/could-not-run.ts";

export interface FinishedCheck {
  exit: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The wall cap it ran under, for the reason text. */
  timeoutMs: number;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  /** True when stdout printed more than `stdout` holds. */
  stdoutTruncated: boolean;
}

export interface Judgement {
  passed: boolean;
  /** One line; present when the check did not pass. */
  reason?: string;
}

/** The expectation as written: "exit_zero", "empty_output", "exit 3", "output_matches /re/". */
export function describeExpect(expect: Expect): string {
  if (typeof expect === "string") return expect;
  if ("exit" in expect) return `exit ${expect.exit}`;
  return `output_matches /${expect.output_matches}/`;
}

/** Why an expectation cannot be judged (an invalid regular expression), or null. */
export function expectProblem(expect: Expect): string | null {
  if (typeof expect === "object" && "output_matches" in expect) {
    try {
      new RegExp(expect.output_matches, "m");
    } catch (e) {
      return `output_matches is not a valid regular expression: ${(e as Error).message}`;
    }
  }
  return null;
}

export function judgeCheck(expect: Expect, run: FinishedCheck): Judgement {
  if (run.timedOut) return fail(`timed out after ${formatDuration(run.timeoutMs)}`);
  if (run.signal !== null) {
    // A signal death has no exit status; the shell's $? for it is 128 + the signal's number,
    // and an expect naming that exit expected the death (a crash test, say).
    const as = signalExit(run.signal);
    if (typeof expect === "object" && "exit" in expect && as !== null && expect.exit === as) return pass();
    return fail(`killed by ${run.signal}${as !== null ? ` (exit ${as} to a shell)` : ""}: the check did not finish`);
  }
  if (expect === "exit_zero") return run.exit === 0 ? pass() : fail(`${describeExit(run.exit)}, expected 0`);
  if (expect === "empty_output") {
    if (run.exit !== 0) return fail(`${describeExit(run.exit)}, expected 0 and no output`);
    const out = run.stdout.trim();
    if (out === "" && !run.stdoutTruncated) return pass();
    return fail(`${printed(run, out)}, expected no output: ${firstLines(out)}`);
  }
  if ("exit" in expect) return run.exit === expect.exit ? pass() : fail(`${describeExit(run.exit)}, expected ${expect.exit}`);
  const re = new RegExp(expect.output_matches, "m");
  if (re.test(run.stdout) || re.test(run.stderr)) return pass();
  return fail(`output does not match /${expect.output_matches}/ (exit ${run.exit})`);
}

function pass(): Judgement {
  return { passed: true };
}
function fail(reason: string): Judgement {
  return { passed: false, reason };
}

function printed(run: FinishedCheck, out: string): string {
  if (run.stdoutTruncated) return `printed ${run.stdoutBytes} bytes`;
  const n = out.split("\n").length;
  return `printed ${n} line${n === 1 ? "" : "s"}`;
}

/** The first two lines, each at most 120 characters: enough to name the offending files. */
function firstLines(out: string): string {
  const lines = out.split("\n");
  const shown = lines.slice(0, 2).map((l) => (l.length > 120 ? `${l.slice(0, 119)}…` : l));
  return shown.join(", ") + (lines.length > 2 ? ", …" : "");
}

/** The status a shell reports for a death by `signal` (128 + its number); null for a name the system does not know. */
export function signalExit(signal: string): number | null {
  const n = Object.hasOwn(constants.signals, signal) ? constants.signals[signal as keyof typeof constants.signals] : undefined;
  return typeof n === "number" ? 128 + n : null;
}
