// The one error the git port throws: which git command failed and what git said,
// so the run's error names it instead of a stack trace (exit 3: no verdict).
import { EXIT, VouchError } from "../engine/errors.ts";

export class GitError extends VouchError {
  override readonly name = "GitError";
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
