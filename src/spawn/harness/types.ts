// What every harness adapter is (docs/architecture.md §9, ADR 0005): a name, the program
// it drives, the guarantees it declares, a command builder and a stream parser.
// Adapters never start processes: the agent runner hands their command to
// runProcess (src/spawn/process.ts) and feeds stdout lines to their parser.
import type { CapName } from "../../engine/events.ts";
import type { AgentAssignment, HarnessName, Sitting, SittingProgress } from "../../engine/ports.ts";
import type { SessionMode } from "../../engine/sessions.ts";

/** How a cap is kept: the harness's own flag, the engine killing the process
 *  group, only noticed afterwards from the harness's report, or not at all. */
export type CapGuarantee = "native" | "supervised" | "observed" | "none";
export const CAP_GUARANTEES = ["native", "supervised", "observed", "none"] as const;

export interface Guarantees {
  caps: Record<CapName, CapGuarantee>;
  /** Whether the node's `model`, `tools` and `permission_mode` reach the harness. */
  model: boolean;
  tools: boolean;
  permissionMode: boolean;
}

/** What the runner asks runProcess to run for one sitting. */
export interface HarnessCommand {
  argv: string[];
  /** Written to stdin, then stdin is closed. Absent: stdin closed at once. */
  stdin?: string;
  /** Supervision the adapter asks of the spawn seam (the caps it declares `supervised`). */
  wallMs?: number;
  idleMs?: number;
  /** Bytes of stdout kept as the tail (text adapters read their result from it). */
  keepBytes?: number;
}

/** Everything the adapter may need besides the assignment. */
export interface BuildContext {
  /** The program the `command` harness runs (from the runner's options). */
  commandArgv?: string[];
}

/** How the process ended, as the parser needs it. */
export interface StreamEnd {
  exit: number | null;
  signal: string | null;
  stdoutTail: string;
  stderrTail: string;
  truncated: boolean;
  /** When the process ended (epoch ms): what a relative reset ("retry in 42s") counts from. Default: now. */
  endedAt?: number;
  /** The zone the harness prints a bare clock time in (its TZ); default: the system's. */
  localZone?: string;
}

/** The part of a Sitting that comes from the harness's own output (the runner adds
 *  what the process seam measured: wall, idle, exit code, stderr, truncation). */
export type ParsedSitting = Omit<Sitting, "wallMs" | "idleMs" | "exitCode" | "stderrTail" | "resultTruncated">;

/** Reads one sitting's stdout, line by line. One parser per sitting. */
export interface StreamParser {
  /** One stdout line (without its newline). Returns the progress when this line changed it. */
  feed(line: string): SittingProgress | null;
  /** Progress so far (turns, cost when known, tokens, last activity). */
  progress(): SittingProgress;
  /** True once the output carried the harness's final report (its result):
   *  the sitting has ended by itself, so the backstop has nothing left to kill. */
  reported?(): boolean;
  /** The harness's verdict on the sitting, once the process has ended. */
  finish(end: StreamEnd): ParsedSitting;
}

/** What an adapter declares: enough for refuse() and `vouch harnesses`. */
export interface HarnessDescriptor {
  name: HarnessName;
  /** The program looked up on PATH; null when the adapter runs no program of its own. */
  binary: string | null;
  /** `json-stream`: the harness reports turns/cost/result as JSON; `text`: stdout is the result. */
  protocol: "json-stream" | "text";
  guarantees: Guarantees;
  /** The permission modes this harness understands (its own vocabulary); absent = any. */
  permissionModes?: readonly string[];
  /** Plays recordings: model/tools/permission_mode are accepted but not applied (replay). */
  recorded?: boolean;
  /** What it can do with a session id (ADR 0023): SESSION_SUPPORT[name], src/engine/sessions.ts. */
  sessions?: Readonly<Record<SessionMode, boolean>>;
}

/** An adapter that drives a program through the spawn seam (all but replay). */
export interface HarnessAdapter extends HarnessDescriptor {
  buildCommand(assignment: AgentAssignment, ctx: BuildContext): HarnessCommand;
  createParser(assignment: AgentAssignment): StreamParser;
}
