// Typed errors: one class per kind, each with an explicit name and the exit code
// the command line ends with when it reaches the top (docs/architecture.md §5).
// The CLI prints `vouch: <message>` (+ hint) for these and never a stack trace.

export const EXIT = {
  passed: 0,
  failed: 1,
  usage: 2,
  error: 3,
  paused: 4,
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export abstract class VouchError extends Error {
  abstract override readonly name: string;
  abstract readonly exitCode: ExitCode;
  /** One line telling the user what to do, when there is something to do. */
  readonly hint?: string;
  constructor(message: string, hint?: string) {
    super(message);
    if (hint !== undefined) this.hint = hint;
  }
}

/** Bad command line: unknown command or flag, missing argument. */
export class UsageError extends VouchError {
  override readonly name = "UsageError";
  readonly exitCode = EXIT.usage;
}

export interface GraphProblem {
  file: string;
  line: number;
  col: number;
  message: string;
  hint?: string;
}

/** `file:line:col: message`, then an indented `hint:` line when there is a hint. */
export function formatProblem(p: GraphProblem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}\n${p.hint ? `    hint: ${p.hint}\n` : ""}`;
}

/** A graph file that does not load or validate; carries every problem found. */
export class GraphInvalidError extends VouchError {
  override readonly name = "GraphInvalidError";
  readonly exitCode = EXIT.usage;
  constructor(readonly problems: GraphProblem[]) {
    super(`${problems.length} problem${problems.length === 1 ? "" : "s"} in graph`);
  }
}

/** An input, a graph read error (missing file) or a bad --input value. */
export class InputError extends VouchError {
  override readonly name = "InputError";
  readonly exitCode = EXIT.usage;
}

/** A cap or field the chosen harness cannot keep: refused before any process starts. */
export class RefusalError extends VouchError {
  override readonly name = "RefusalError";
  readonly exitCode = EXIT.usage;
  constructor(readonly refusals: { node: string; harness: string; field: string; message: string }[]) {
    super(
      refusals.map((r) => `node ${r.node}: ${r.message}`).join("\n"),
      "see: vouch harnesses (what each harness keeps); vouch run GRAPH --dry-run (every refusal)",
    );
  }
}

/** A template names something that is not there at run time. */
export class TemplateError extends VouchError {
  override readonly name = "TemplateError";
  readonly exitCode = EXIT.error;
}

/** A process could not be started: missing binary, missing working directory. */
export class SpawnError extends VouchError {
  override readonly name = "SpawnError";
  readonly exitCode = EXIT.error;
}

/** What the git ports (GitPort, MergePort) throw when git fails: which git command, and what
 *  git said. The engine owns the type, so it tells a node's git failure (workspace_error) from
 *  a bug without knowing the adapter (ADR 0036); src/workspace/git-error.ts is the adapter's. */
export class GitPortError extends VouchError {
  override readonly name: string = "GitPortError";
  readonly exitCode = EXIT.error;
  constructor(
    /** The git subcommand and its arguments (never run through a shell). */
    readonly args: readonly string[],
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

/** An error that ends the whole run, never one node: the engine rethrows it past
 *  every node handler (a port that throws anything else fails only that node). */
export abstract class FatalError extends VouchError {}

/** The ledger file is unreadable, foreign, corrupt or from a newer vouch. */
export class LedgerError extends FatalError {
  override readonly name = "LedgerError";
  readonly exitCode = EXIT.error;
}

/** `vouch resume` refused: graph changed, run live, nothing to resume, unknown run. */
export class ResumeRefusedError extends VouchError {
  override readonly name = "ResumeRefusedError";
  readonly exitCode = EXIT.usage;
}

/** A port that was not injected was used (engine tests must inject fakes). */
export class PortNotProvidedError extends FatalError {
  override readonly name = "PortNotProvidedError";
  readonly exitCode = EXIT.error;
}

/** An output consumer (the live UI, the plain or NDJSON writer) threw on an event: a
 *  bug in vouch, not in the node whose event it was. */
export class OutputError extends FatalError {
  override readonly name = "OutputError";
  readonly exitCode = EXIT.error;
  constructor(readonly consumerError: unknown) {
    const e = consumerError;
    const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    super(
      `the output failed while showing the run (a bug in vouch): ${what}`,
      "the events committed so far are in the ledger: vouch show last",
    );
  }
}

/** A check or script the engine refuses to start: a timeout over the ceiling or
 *  not positive, an expectation that cannot be judged, no command to run. */
export class CommandSpecError extends VouchError {
  override readonly name = "CommandSpecError";
  readonly exitCode = EXIT.usage;
}

/** The branch executor cannot be reached at start (`vouch run --executor`, `vouch worker`):
 *  nothing ran, so it is a usage problem (exit 2) naming the URL and the error. */
export class ExecutorUnreachableError extends VouchError {
  override readonly name = "ExecutorUnreachableError";
  readonly exitCode = EXIT.usage;
}

/** The executor was lost mid-run: the run ends `error` (reason executor) and is resumable. */
export class ExecutorLostError extends Error {
  override readonly name = "ExecutorLostError";
}
