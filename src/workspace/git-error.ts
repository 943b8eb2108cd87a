// The one error the git port throws: which git command failed and what git said,
// so the run's error names it instead of a stack trace (exit 3: no verdict). It is
// the engine's port error (GitPortError), so the engine knows it by its class.
import { GitPortError } from "../engine/errors.ts";

export class GitError extends GitPortError {
  override readonly name = "GitError";
}
