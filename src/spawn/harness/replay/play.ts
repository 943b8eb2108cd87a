// The replay harness: plays a recorded Claude Code sitting (any of the three
// output shapes) for a node or a map branch, with no process and no model —
// the offline demo and many tests run on it. Lines are fed to the Claude
// parser, optionally paced (`replayDelayMs`) so a live UI shows progress.
// Wall and idle are supervised by timers; turns and cost are what the
// recording says (observed). What it declares is adapter.ts.
import { basename } from "node:path";
import type { AgentAssignment, AgentHooks, Sitting } from "../../../engine/ports.ts";
import { createClaudeParser } from "../claude/stream.ts";
import { FixtureFolder } from "./folder.ts";
import { applyEdits, ReplayEditError, type ReplayEdit } from "./edits.ts";
import { InputError } from "../../../engine/errors.ts";
import { MAX_INPUT_ENV } from "../../read-limited.ts";
import { notRun } from "../../../engine/not-run.ts";

export interface ReplayOptions {
  dir: string;
  delayMs: number;
  /** The largest fixture read (VOUCH_MAX_INPUT_BYTES). */
  maxBytes: number;
  /** What earlier sittings read of the folder (the runner's; default: a fresh one). */
  fixtures?: FixtureFolder;
}

/** Why no sitting can be played from `dir` (no folder given, or not a folder), or null. */
export function replayFolderProblem(dir: string | undefined, fixtures: FixtureFolder): string | null {
  if (dir !== undefined && fixtures.isFolder(dir)) return null;
  const where = dir ? `"${dir}" is not a folder` : "no fixture folder was given";
  return `${where}: pass --replay-dir DIR`;
}

type Stop = "wall" | "idle" | "cancelled";

/** A sitting's recording: the fixture's lines and the edits it left, or why it cannot be played. */
type Recording = { found: string; lines: string[]; edits: ReplayEdit[] } | { unplayable: string } | { bad: string };

function readRecording(a: AgentAssignment, opts: ReplayOptions, fixtures: FixtureFolder): Recording {
  const lookup = fixtures.find(opts.dir, a.node, a.attempt, a.branch?.index, a.round);
  if ("missing" in lookup) {
    const looked = lookup.lookedFor.length > 0 ? `; looked for ${lookup.lookedFor.join(", ")}` : "";
    return { unplayable: `${lookup.missing}${looked}` };
  }
  let lines: string[];
  try {
    const what = `replay fixture ${lookup.found}`;
    lines = fixtures.lines(lookup.found, { what, maxBytes: opts.maxBytes, raise: `set ${MAX_INPUT_ENV} to read a larger fixture` });
  } catch (e) {
    return { unplayable: e instanceof InputError ? e.message : `cannot read replay fixture ${lookup.found}: ${(e as Error).message}` };
  }
  try {
    return { found: lookup.found, lines, edits: fixtures.edits(lookup, opts.maxBytes) };
  } catch (e) {
    return { bad: badFixture(lookup.found, (e as Error).message) };
  }
}

/** A recording vouch will not play is the fixture's fault, not the harness's: said as such. */
function badFixture(found: string, why: string): string {
  return `bad replay fixture ${basename(found)}: ${why} (fix or re-record it)`;
}

export async function playReplay(a: AgentAssignment, hooks: AgentHooks, opts: ReplayOptions): Promise<Sitting> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const recording = readRecording(a, opts, opts.fixtures ?? new FixtureFolder());
  if ("unplayable" in recording) return notRun("unavailable", recording.unplayable, elapsed());
  if ("bad" in recording) return notRun("crashed", recording.bad, elapsed());
  const { found, lines, edits } = recording;

  const parser = createClaudeParser(`replay fixture ${basename(found)}`);
  let longestSilence = 0;
  let stop: Stop | null = null;
  for (const line of lines) {
    if (hooks.signal.aborted) stop = "cancelled";
    else if (opts.delayMs > 0) {
      stop = await pause(opts.delayMs, a, elapsed(), hooks.signal);
      longestSilence = Math.max(longestSilence, stop === "idle" ? (a.caps.idleMs ?? 0) : opts.delayMs);
    }
    if (a.caps.wallMs !== undefined && elapsed() > a.caps.wallMs && stop === null) stop = "wall";
    if (stop) break;
    const progress = parser.feed(line);
    if (progress) hooks.onProgress(progress);
  }

  const parsed = parser.finish({ exit: null, signal: null, stdoutTail: "", stderrTail: "", truncated: false });
  const sitting: Sitting = {
    ...parsed,
    wallMs: elapsed(),
    idleMs: longestSilence,
    exitCode: parsed.stopReason === "complete" ? 0 : 1,
    stderrTail: "",
  };
  if (stop) {
    sitting.stopReason = stop;
    sitting.exitCode = null;
    sitting.error = stopMessage(stop, a);
    return sitting;
  }
  // The recording played to its end: its edits land in the sitting's folder
  // (its worktree when the node has one), as the model's tools would have left them.
  const refused = replayEditsInto(a.cwd, edits);
  return refused ? notRun("crashed", badFixture(found, refused), elapsed()) : sitting;
}

/** Applies a sitting's recorded edits; the reason when they could not be (nothing is half-written by a refused path). */
function replayEditsInto(cwd: string, edits: readonly ReplayEdit[]): string | null {
  try {
    applyEdits(cwd, edits);
    return null;
  } catch (e) {
    if (e instanceof ReplayEditError) return e.message;
    return `cannot apply replay edits in ${cwd}: ${(e as Error).message}`;
  }
}

/** Waits the pacing delay, unless the wall or idle cap or a cancel comes first. */
function pause(delayMs: number, a: AgentAssignment, elapsedMs: number, signal: AbortSignal): Promise<Stop | null> {
  const wallLeft = a.caps.wallMs !== undefined ? Math.max(0, a.caps.wallMs - elapsedMs) : Infinity;
  const idle = a.caps.idleMs ?? Infinity;
  const wait = Math.min(delayMs, wallLeft, idle);
  const outcome: Stop | null = wait === delayMs ? null : wait === wallLeft ? "wall" : "idle";
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(outcome);
    }, wait);
    const onAbort = () => {
      clearTimeout(timer);
      resolve("cancelled");
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function stopMessage(stop: Stop, a: AgentAssignment): string {
  if (stop === "wall") return `replay stopped by the wall cap (${a.caps.wallMs} ms)`;
  if (stop === "idle") return `replay stopped by the idle cap (${a.caps.idleMs} ms without output)`;
  return "replay cancelled";
}
