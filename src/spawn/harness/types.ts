// What every harness adapter is (docs/architecture.md §9, ADR 0005, ADR 0034): a name,
// the program it drives, the guarantees it declares, a command builder and a stream
// parser — and everything else vouch knows of its CLI: the words that continue a
// session, the version it is tested with, how `vouch doctor` reads its argument
// parser, where it keeps transcripts, the settings that keep it read-only. Each
// harness is one folder (src/spawn/harness/<name>/); the loops over the registry
// (refusals, `vouch harnesses`, doctor, transcripts, help) read only this contract.
// Adapters never start processes: the agent runner hands their command to
// runProcess (src/spawn/process.ts) and feeds stdout lines to their parser.
import type { StateFile } from "../sandbox/confine.ts";
import type { CapName } from "../../engine/events.ts";
import type { AgentAssignment, AgentPlan, HarnessName, Sitting, SittingProgress } from "../../engine/ports.ts";
import type { StdinSink } from "../process-types.ts";
import type { SessionMode } from "../../engine/harnesses.ts";

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
  /** stdin stays open: the parser converses with the program (StreamParser.converse; ACP). Instead of stdin. */
  conversation?: true;
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
  /** Reads what the harness records besides its stdout (codex's session file, ADR 0050).
   *  Called on a timer while the process runs; returns the progress when it changed.
   *  finish() reads it once more. Absent: stdout is all there is. */
  poll?(): SittingProgress | null;
  /** A harness that talks back (ACP's JSON-RPC): given the program's stdin once it started.
   *  `progressed` reports progress that arrived between lines; `finished` says the harness has
   *  its answer, so the sitting may end the program (ADR 0051). */
  converse?(stdin: StdinSink, hooks: ConversationHooks): void;
  /** vouch is about to stop the program (a cap, a cancel): tell it first (ACP's session/cancel). */
  stopping?(): void;
  /** Awaited after the process ended, before finish(): what the conversation still had to read. */
  settle?(): Promise<void>;
  /** The harness's verdict on the sitting, once the process has ended. */
  finish(end: StreamEnd): ParsedSitting;
}

export interface ConversationHooks {
  progressed(progress: SittingProgress): void;
  finished(): void;
}

/** What a parser may need besides the assignment. */
export interface ParserContext {
  /** The child's environment (where its CLI keeps its files: HOME, CODEX_HOME …). */
  env: Readonly<Record<string, string | undefined>>;
  /** When the sitting started (epoch ms). */
  startedAt: number;
}

/** The npm package and version of a CLI vouch is tested with (clis/package.json pins the same). */
export interface TestedVersion {
  package: string;
  version: string;
}

export type ProbeVerdict = "accepted" | "rejected" | "unknown";

/** How a CLI answered one `vouch doctor` probe. */
export interface ProbeAnswer {
  exit: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** How `vouch doctor` checks a CLI's argument parser (ADR 0018, src/spawn/harness/doctor-probes.ts). */
export interface DoctorProbe {
  /** Variables that keep the CLI off the network during a probe (base URLs on a closed port …). */
  env: Readonly<Record<string, string>>;
  /** The CLI's parse-error wording and exit status against the error it gives only after parsing succeeded. */
  classify(answer: ProbeAnswer): { verdict: ProbeVerdict; detail: string };
}

/** Where a CLI keeps a session's transcript (for `vouch show`). */
export interface TranscriptStore {
  /** The folders searched, as a message names them ("$CODEX_HOME or ~/.codex/sessions"). */
  where: string;
  /** The transcript file of session `id` (already checked to be an id), or null. */
  find(id: string, env: Readonly<Record<string, string | undefined>>): string | null;
}

/** One line of the starter graph's YAML (without indentation) and the comment that explains it. */
export type StarterRow = readonly [text: string, comment: string];

/** What `vouch init` writes for a harness's agent node (src/cli/init/harness-settings.ts): the
 *  settings that let it edit files (and, with a tool list, run the tests), and only caps it keeps. */
export interface StarterSettings {
  /** The comment on the `harness:` line. */
  comment: string;
  /** tools / permission_mode / acp lines. */
  rows: readonly StarterRow[];
  /** The sitting's caps as a flow mapping, with the comment saying them in words. */
  caps: StarterRow;
}

/** What an adapter declares: enough for refuse(), `vouch harnesses`, doctor, transcripts and help. */
export interface HarnessDescriptor {
  name: HarnessName;
  /** What `vouch init`'s starter graph says for it. */
  starter: StarterSettings;
  /** The program looked up on PATH; null when the adapter runs no program of its own. */
  binary: string | null;
  /** `json-stream`: the harness reports turns/cost/result as JSON; `text`: stdout is the result. */
  protocol: "json-stream" | "text";
  guarantees: Guarantees;
  /** The permission modes this harness understands (its own vocabulary); absent = any. */
  permissionModes?: readonly string[];
  /** Plays recordings: model/tools/permission_mode are accepted but not applied (replay). */
  recorded?: boolean;
  /** What it can do with a session id (ADR 0023): SESSION_SUPPORT[name], src/engine/harnesses.ts. */
  sessions?: Readonly<Record<SessionMode, boolean>>;
  /** The graph settings that keep a sitting read-only (the planner's, src/cli/plan/planner.ts). Absent: none. */
  readOnly?: Readonly<Record<string, unknown>>;
  /** The program it runs when that is not `binary` (the command harness: VOUCH_COMMAND). */
  programFrom?(env: Readonly<Record<string, string | undefined>>): string | null;
  /** What `vouch harnesses` says when there is no program (replay: built in; command: how to name one). */
  noProgram?: string;
  /** The CLI version vouch is tested with (agent CLIs). */
  testedVersion?: TestedVersion;
  /** How `vouch doctor` checks the CLI's argument parser (agent CLIs). */
  probe?: DoctorProbe;
  /** Where its CLI keeps transcripts (agent CLIs with sessions). */
  transcripts?: TranscriptStore;
  /** The folders its CLI writes besides the work tree (settings, sessions, caches), as absolute
   *  paths for the sitting's environment: the only ones a sealed sitting may write outside its tree
   *  and scratch TMPDIR (ADR 0040); a protocol harness's depend on the agent (acp). Absent: none. */
  stateDirs?(env: Readonly<Record<string, string | undefined>>, plan: Pick<AgentPlan, "acp">): string[];
  /** Files its CLI rewrites in place beside those folders (claude's ~/.claude.json), writable when sealed. */
  stateFiles?(env: Readonly<Record<string, string | undefined>>, plan: Pick<AgentPlan, "acp">): StateFile[];
  /** Guarantees that depend on the node (acp: on the agent its command starts); absent: `guarantees`. */
  guaranteesFor?(plan: Pick<AgentPlan, "acp">): Guarantees;
  /** Session support that depends on the node (acp: on the agent); absent: `sessions`. */
  sessionsFor?(plan: Pick<AgentPlan, "acp">): Readonly<Record<SessionMode, boolean>> | undefined;
  /** Why this node cannot run on the harness at all (acp without acp.command), or null. */
  planProblem?(plan: AgentPlan): string | null;
  /** The agents a protocol harness is tested with, each with its own guarantees (acp). */
  agents?: readonly HarnessAgent[];
}

/** One agent of a protocol harness (acp): what `vouch harnesses` lists under it. */
export interface HarnessAgent {
  name: string;
  /** The program looked up on PATH. */
  program: string;
  /** The command line that starts it in that protocol. */
  command: readonly string[];
  guarantees: Guarantees;
  testedVersion: TestedVersion;
}

/** A session a sitting continues (ADR 0023). */
export type SessionToContinue = NonNullable<AgentAssignment["session"]>;

/** An adapter that drives a program through the spawn seam (all but replay). */
export interface HarnessAdapter extends HarnessDescriptor {
  buildCommand(assignment: AgentAssignment, ctx: BuildContext): HarnessCommand;
  createParser(assignment: AgentAssignment, ctx?: ParserContext): StreamParser;
  /** The command-line words that continue `session`; throws a SpawnError for a mode its
   *  CLI lacks. Absent: the harness has no sessions (SESSION_SUPPORT says so too). */
  sessionArgs?(session: SessionToContinue): string[];
  /** Why no sitting can start with this setup (the command harness without a program), or null. */
  unready?(ctx: BuildContext): string | null;
  /** A stdout line that is no progress — the CLI waiting for the network or retrying a request —
   *  so it does not hold off the idle cap (ADR 0050). Absent: every line is progress. */
  quietLine?(line: string): boolean;
}
