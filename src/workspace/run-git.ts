// Runs git by argv through the process seam (src/spawn/process.ts starts every
// process). The environment is the child allowlist plus git's own switches:
// nothing of the user's GIT_DIR / GIT_INDEX_FILE / GIT_WORK_TREE leaks in (a
// vouch started from a git hook would otherwise write the user's index), no
// prompts, no optional index refreshes (a `git status` on the user's checkout
// must not rewrite its index), a fixed identity, and a C locale so messages
// and output parse the same everywhere. Replace refs are ignored
// (GIT_NO_REPLACE_OBJECTS): a sitting that adds one under refs/replace/ cannot
// make vouch read one commit, tree or blob as another (ADR 0044).
import { buildChildEnv, parentEnv } from "../spawn/child-env.ts";
import { runProcess } from "../spawn/process.ts";
import type { ProcessSupervisor } from "../spawn/process-registry.ts";
import { GitError } from "./git-error.ts";

/** Author and committer of every commit vouch makes. */
export const VOUCH_IDENTITY = { name: "vouch", email: "vouch@localhost" } as const;

/** Git output vouch reads whole (paths, stats); a diff asks for its own bound. */
export const DEFAULT_GIT_OUTPUT_BYTES = 32 * 1024 * 1024;

/** Settings that make a command behave the same whatever the user's config says:
 *  no hooks (a pre-commit hook must not run on the agent's work), no signing
 *  prompts, no fsmonitor daemon, no external diff or textconv programs. */
const CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "commit.gpgsign=false",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "diff.external=",
  "-c",
  "core.quotepath=false",
  "-c",
  "gc.auto=0",
  "-c",
  "maintenance.auto=false",
];

export interface GitResult {
  exit: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
}

function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  return buildChildEnv(parentEnv(), [], {
    GIT_OPTIONAL_LOCKS: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: VOUCH_IDENTITY.name,
    GIT_AUTHOR_EMAIL: VOUCH_IDENTITY.email,
    GIT_COMMITTER_NAME: VOUCH_IDENTITY.name,
    GIT_COMMITTER_EMAIL: VOUCH_IDENTITY.email,
    LC_ALL: "C",
    ...extra,
  }).env;
}

/** What one git call needs beyond the defaults: a private index (GIT_INDEX_FILE), text on stdin. */
export interface GitCallOptions {
  env?: Record<string, string>;
  stdin?: string;
  supervisor?: ProcessSupervisor;
}

/** Runs `git ARGS` in `cwd`; resolves with its exit status (never throws for a non-zero exit). */
/** `supervisor`: a git that may hang on the network (a worker's fetch) is stopped with the rest at shutdown. */
export async function runGitRaw(
  cwd: string,
  args: readonly string[],
  keepBytes = DEFAULT_GIT_OUTPUT_BYTES,
  supervisor?: ProcessSupervisor,
  call: Omit<GitCallOptions, "supervisor"> = {},
): Promise<GitResult> {
  const result = await runProcess(
    { argv: ["git", ...CONFIG, ...args] },
    {
      cwd,
      env: gitEnv(call.env),
      keepBytes,
      keepStderrBytes: 64 * 1024,
      ...(supervisor ? { supervisor } : {}),
      ...(call.stdin !== undefined ? { stdin: call.stdin } : {}),
    },
  );
  if (result.terminationReason === "spawn_failed") {
    throw new GitError(args, `could not run git: ${result.spawnError ?? "it did not start"}`, "install git, or put it on PATH");
  }
  if (result.exit === null) throw new GitError(args, `git ${args[0]} was stopped (${result.signal ?? result.terminationReason})`);
  return { exit: result.exit, stdout: result.stdoutTail, stderr: result.stderrTail, truncated: result.stdoutBytes > keepBytes };
}

/** Runs `git ARGS` and returns its stdout; a non-zero exit or cut output is a GitError. */
export async function runGit(
  cwd: string,
  args: readonly string[],
  keepBytes = DEFAULT_GIT_OUTPUT_BYTES,
  call: Omit<GitCallOptions, "supervisor"> = {},
): Promise<string> {
  const r = await runGitRaw(cwd, args, keepBytes, undefined, call);
  // The subcommand names the failure, after any --git-dir=/--work-tree= that point git at a worktree.
  const name = args.find((a) => !a.startsWith("--")) ?? args[0];
  if (r.exit !== 0) throw new GitError(args, `git ${name} failed (exit ${r.exit}): ${firstLines(r.stderr)}`);
  if (r.truncated) throw new GitError(args, `git ${name} printed more than ${keepBytes} bytes`);
  return r.stdout;
}

function firstLines(text: string): string {
  const t = text.trim().split("\n").slice(0, 3).join(" / ");
  return t === "" ? "(no message)" : t;
}
