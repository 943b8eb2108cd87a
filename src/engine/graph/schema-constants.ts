// The graph language's plain constants: patterns, names and defaults, without zod (ADR 0083).
// schema.ts builds the zod schema from them and re-exports them; the fast graph check
// (schema-fast.ts) and the validator read them here, so a valid file never loads zod.
import { HARNESS_NAMES } from "../harnesses.ts";

export const CHECK_TIMEOUT_DEFAULT_MS = 120_000;
export const SCRIPT_TIMEOUT_DEFAULT_MS = 120_000;
/** The harness of an agent node that names none (nor do its file's defaults or --harness). */
export const DEFAULT_HARNESS: (typeof HARNESS_NAMES)[number] = "claude";

export const NODE_ID_PATTERN = "^[A-Za-z_][A-Za-z0-9_-]*$";
export const INPUT_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
/** An agent node's `claim:`, a path into its output: output, output.verdict, output.result.state. */
export const CLAIM_PATH_PATTERN = "^output(\\.[A-Za-z0-9_-]+)*$";

export const RETRY_CAUSES = [
  "nonzero_exit",
  "output_invalid",
  "result_mismatch",
  "check_failed",
  "cap_stop",
  "timeout",
  "harness_error",
  "tampered",
  "vacuous_check",
] as const;
export type RetryCause = (typeof RETRY_CAUSES)[number];
/** Causes retried when `retry.on` is omitted. `cap_stop` is left out on purpose:
 *  retrying a sitting that hit its budget spends the budget again (ADR 0002). */
export const DEFAULT_RETRY_CAUSES: RetryCause[] = [
  "nonzero_exit",
  "output_invalid",
  "result_mismatch",
  "check_failed",
  "timeout",
  "harness_error",
  "tampered",
  "vacuous_check",
];

/** How many times a failed check runs again on the same tree (ADR 0066): fails, then passes = flaky. */
export const RERUNS_MAX = 10;

/** A witnessed check must fail on the base before it counts as passing on the result (ADR 0044). */
export const WITNESS_KINDS = ["fails_on_base"] as const;

export const WORKSPACE_MODES = ["shared", "worktree"] as const;
export const KEEP_POLICIES = ["on_failure", "always", "never"] as const;

export const NODE_KINDS = ["agent", "script", "map", "router", "approval", "end", "graph", "merge"] as const;
export type NodeKind = (typeof NODE_KINDS)[number];
