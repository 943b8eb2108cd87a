// The graph language, version 1 (docs/graph-language.md), as zod schemas.
// Field names are fixed (users and tests depend on them); every object is strict so an unknown
// field is reported (with a "did you mean" hint by the validator), never ignored.
// Cross-field rules (ids that must exist, cycles, templates) live in validate.ts.
import { z } from "zod";
import { CHECK_TIMEOUT_CEILING_MS, DURATION_PATTERN, formatDuration, parseDuration } from "./duration.ts";
import { conditionSchema } from "./condition-schema.ts";
import { HARNESS_NAMES } from "../harnesses.ts";
import { SANDBOX_MODES } from "../sandbox.ts";
import { EXECUTOR_URL_PATTERN, executorUrlProblem } from "./executor-url.ts";
import { notifierSchema } from "./notify-schema.ts";
import { ENV_NAME_PATTERN } from "./env-name.ts";
import {
  NODE_ID_PATTERN,
  INPUT_NAME_PATTERN,
  CLAIM_PATH_PATTERN,
  RETRY_CAUSES,
  RERUNS_MAX,
  WITNESS_KINDS,
  WORKSPACE_MODES,
  KEEP_POLICIES,
} from "./schema-constants.ts";

export {
  CHECK_TIMEOUT_DEFAULT_MS,
  SCRIPT_TIMEOUT_DEFAULT_MS,
  DEFAULT_HARNESS,
  NODE_ID_PATTERN,
  INPUT_NAME_PATTERN,
  CLAIM_PATH_PATTERN,
  RETRY_CAUSES,
  DEFAULT_RETRY_CAUSES,
  RERUNS_MAX,
  WITNESS_KINDS,
  WORKSPACE_MODES,
  KEEP_POLICIES,
  NODE_KINDS,
} from "./schema-constants.ts";
export type { NodeKind, RetryCause } from "./schema-constants.ts";
export { ENV_NAME_PATTERN };
/** The harness names are the engine's list (src/engine/harnesses.ts), exported here for the schema's readers. */
export { HARNESS_NAMES };

/** A positive duration string; parses to milliseconds. */
export const durationSchema = z
  .string()
  .regex(new RegExp(DURATION_PATTERN), { message: 'a duration needs a unit, like "90s", "10m" or "1h30m"' })
  .transform((text) => parseDuration(text)!)
  .refine((ms) => ms > 0, { message: "a duration must be greater than zero" })
  .meta({ description: 'A duration with units: "500ms", "90s", "10m", "1h30m".' });

const nodeId = z.string().regex(new RegExp(NODE_ID_PATTERN), {
  message: "a node id starts with a letter or _ and holds only letters, digits, _ and -",
});
const envName = z.string().regex(new RegExp(ENV_NAME_PATTERN), {
  message: "an environment variable name holds only letters, digits and _, and does not start with a digit",
});
const inputName = z.string().regex(new RegExp(INPUT_NAME_PATTERN), {
  message: "an input name holds only letters, digits and _, and does not start with a digit",
});

/** A sitting's wall or idle cap: a duration, or `none` for no such cap (agent sittings have defaults, ADR 0050). */
const sittingDuration = z
  .string()
  .regex(new RegExp(`^none$|${DURATION_PATTERN}`), {
    message: 'a duration needs a unit, like "90s", "10m" or "1h30m" (or none: no such cap)',
  })
  .transform((text): number | "none" => (text === "none" ? "none" : parseDuration(text)!))
  .refine((ms) => ms === "none" || ms > 0, { message: "a duration must be greater than zero" })
  .meta({ description: 'A duration ("90s", "10m", "1h30m"), or none: no such cap (agent sittings have wall 1h and idle 15m by default).' });

export const capsSchema = z
  .strictObject({
    turns: z.number().int({ message: "turns must be a whole number" }).positive({ message: "turns must be greater than zero" }).optional(),
    budget_usd: z.number().positive({ message: "budget_usd must be greater than zero" }).optional(),
    wall: sittingDuration.optional(),
    idle: sittingDuration.optional(),
  })
  .meta({
    description:
      "Limits. A cap is a threshold: crossing it is reported as cap.overrun. An agent sitting has a wall cap of 1h and an idle cap of 15m unless it sets its own; `none` removes one (ADR 0050).",
  });
export type Caps = z.output<typeof capsSchema>;

/** The whole run's caps: a budget and a wall clock. Turns and idle limit one sitting
 *  (defaults.caps or a node's caps), so they are refused here rather than ignored. */
export const runCapsSchema = z
  .strictObject({
    budget_usd: z.number().positive({ message: "budget_usd must be greater than zero" }).optional(),
    wall: durationSchema.optional(),
  })
  .meta({ description: "Whole-run limits: budget_usd and wall. Crossing one stops the run as error." });

export const expectSchema = z.union([
  z.enum(["exit_zero", "empty_output"]),
  z.strictObject({ exit: z.number().int().min(0).max(255) }),
  z.strictObject({ output_matches: z.string().min(1) }),
]);
export type Expect = z.output<typeof expectSchema>;

const checkTimeout = durationSchema.refine((ms) => ms <= CHECK_TIMEOUT_CEILING_MS, {
  message: `a check timeout may not exceed ${formatDuration(CHECK_TIMEOUT_CEILING_MS)}`,
});

const reruns = z
  .number()
  .int({ message: "reruns is a whole number" })
  .min(1, { message: "reruns must be at least 1" })
  .max(RERUNS_MAX, { message: `reruns may be at most ${RERUNS_MAX}` })
  .meta({
    description:
      "When the check fails, run it again on the same tree up to this many times: failed, then passed is flaky (error flaky_check).",
  });

/** What a check's tree takes from where, its network, its witness (ADR 0043, 0044). */
const checkTreeFields = {
  from_base: z
    .array(z.string().min(1))
    .optional()
    .meta({ description: "Globs of repository paths the check reads as the base has them, whatever the attempt made of them." }),
  from_result: z.array(z.string().min(1)).optional().meta({
    description:
      "Globs of repository paths the check reads from the attempt's commit although its command names them; a witness runs on the base with these paths from the commit.",
  }),
  network: z.boolean().optional().meta({ description: "true: the check may use the network when sealed (default: none)." }),
  witness: z
    .enum(WITNESS_KINDS)
    .optional()
    .meta({ description: "fails_on_base: the check runs first on the base and must fail there, then must pass on the result." }),
};

/** What a check says besides its command, in the library and inline alike. */
const checkBodyFields = {
  timeout: checkTimeout.optional(),
  expect: expectSchema.optional(),
  description: z.string().optional(),
  reruns: reruns.optional(),
  ...checkTreeFields,
};

/** A check in the graph's library (its name is the key). */
export const checkDefSchema = z.strictObject({
  run: z.string().min(1, { message: "run must be a command" }),
  ...checkBodyFields,
});
export type CheckDef = z.output<typeof checkDefSchema>;

/** Where a node lists a check: a library name, or an inline check with a name. */
export const checkRefSchema = z.union([
  z.string().min(1),
  z.strictObject({
    name: z.string().min(1),
    run: z.string().min(1),
    ...checkBodyFields,
  }),
]);
export type CheckRef = z.output<typeof checkRefSchema>;

export const successSchema = z.strictObject({
  exit_zero: z.boolean().optional(),
  result_matches: z.string().min(1).optional(),
  checks: z.array(checkRefSchema).optional(),
});
export type Success = z.output<typeof successSchema>;

export const retrySchema = z.strictObject({
  max: z.number().int().min(1, { message: "retry.max must be at least 1" }),
  on: z.array(z.enum(RETRY_CAUSES)).min(1).optional(),
  backoff: durationSchema.optional(),
  session: z.enum(["fresh", "continue"]).optional().meta({
    description: "continue: a retry resumes the failed attempt's session with only the failure quoted (ADR 0023). Default fresh.",
  }),
  max_cost: z
    .number()
    .gt(0, { message: "retry.max_cost is a share of the node's budget, greater than 0" })
    .max(1, { message: "retry.max_cost is a share of the node's budget, at most 1" })
    .optional()
    .meta({
      description:
        "Stop retrying a cause once its retries, without progress, have spent this share of the node's budget (caps.budget_usd times 1 + max) (ADR 0068).",
    }),
});
export type Retry = z.output<typeof retrySchema>;

export const outputSchema = z.strictObject({
  format: z.enum(["text", "json"]).optional(),
  schema: z.record(z.string(), z.unknown()).optional().meta({ description: "A JSON Schema the output must match." }),
});
export type OutputContract = z.output<typeof outputSchema>;

export const feedbackSchema = z.strictObject({
  to: nodeId,
  max: z.number().int().min(1, { message: "feedback.max must be at least 1" }),
  when: conditionSchema.optional(),
});
export type Feedback = z.output<typeof feedbackSchema>;

/** Where a node's sitting works (ADR 0020): the shared folder, or a git worktree of its own. */
const workspaceFields = {
  mode: z
    .enum(WORKSPACE_MODES)
    .optional()
    .meta({ description: "shared (the default: the folder as it is) or worktree (a git worktree of its own, on a new branch)." }),
  base: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "The git ref the worktree starts from (default HEAD of the repository holding cwd)." }),
  protect: z
    .array(z.string().min(1))
    .optional()
    .meta({ description: 'Globs of repository paths the sitting may not change, e.g. "test/**".' }),
  keep: z
    .enum(KEEP_POLICIES)
    .optional()
    .meta({ description: "Which worktrees stay when the run ends: on_failure (default), always, never. Branches always stay." }),
  deps: z.array(z.string().min(1)).optional().meta({
    description:
      'Globs of the folders git ignores in your checkout that checks see read-only in their tree (installed dependencies); default ["**/node_modules", "**/.venv", "**/venv"].',
  }),
};
export const defaultsWorkspaceSchema = z.strictObject(workspaceFields);
export const workspaceSchema = z.strictObject({
  ...workspaceFields,
  from: nodeId
    .optional()
    .meta({ description: "Continue from an upstream node's worktree: this node's worktree starts at that node's last commit." }),
});
export type WorkspaceSpec = z.output<typeof workspaceSchema>;
/** session: { continue: NODE } or { fork: NODE } on an agent node (ADR 0023); exactly one, checked by the validator. */
export const sessionSchema = z
  .strictObject({ continue: nodeId.optional(), fork: nodeId.optional() })
  .meta({ description: "Continue (resume) or fork the last session of an upstream agent node on the same harness and cwd." });
export type SessionSpec = z.output<typeof sessionSchema>;

const common = {
  description: z.string().optional(),
  needs: z.array(nodeId).optional(),
  when: conditionSchema.optional(),
};

/** Sealing (ADR 0040): whether the node's processes run in the sandbox, and with network. */
const sealFields = {
  sandbox: z.enum(SANDBOX_MODES).optional().meta({
    description:
      "auto (default): sealed where the sandbox works, else unsealed with one warning; required: refuse to start where it cannot seal; off: never sealed. A script without a workspace is sealed only with required.",
  }),
  network: z.boolean().optional().meta({ description: "false: a sealed process has no network (loopback only). Default true." }),
};
/** The agent an `acp` sitting talks to (ADR 0051): its command line, static like a script's argv. */
export const acpSchema = z
  .strictObject({
    command: z
      .array(z.string().min(1, { message: "an acp.command item is never empty" }))
      .min(1, { message: "acp.command names the agent's program and its arguments, e.g. [gemini, --acp]" })
      .meta({ description: "The ACP agent's command line (no templates): [gemini, --acp], [claude-code-acp]." }),
  })
  .meta({ description: "For harness: acp, the agent that speaks the Agent Client Protocol on its stdin and stdout." });
export type AcpSpec = z.output<typeof acpSchema>;

const agentFields = {
  harness: z.enum(HARNESS_NAMES).optional(),
  acp: acpSchema.optional(),
  model: z.string().min(1).optional(),
  tools: z.array(z.string().min(1)).optional(),
  permission_mode: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
  env: z.array(envName).optional(),
  caps: capsSchema.optional(),
  ...sealFields,
};

const recovery = {
  retry: retrySchema.optional(),
  fallback: nodeId.optional(),
  exhausted: z.strictObject({ output: z.unknown() }).optional(),
  feedback: feedbackSchema.optional(),
};

export const agentNodeSchema = z.strictObject({
  kind: z.literal("agent"),
  ...common,
  ...agentFields,
  prompt: z.string().min(1, { message: "an agent node needs a prompt" }),
  workspace: workspaceSchema.optional(),
  session: sessionSchema.optional(),
  output: outputSchema.optional(),
  success: successSchema.optional(),
  stamp: z.record(z.string(), z.string()).optional(),
  claim: z
    .string()
    .regex(new RegExp(CLAIM_PATH_PATTERN), { message: "claim is a path into the output: output.FIELD (output.verdict)" })
    .optional()
    .meta({
      description: "Where the model states its own verdict (output.verdict): vouch stats sets it beside what the checks found (ADR 0068).",
    }),
  ...recovery,
});

export const scriptNodeSchema = z.strictObject({
  kind: z.literal("script"),
  ...common,
  run: z.string().min(1).optional(),
  argv: z.array(z.string()).min(1).optional(),
  cwd: z.string().min(1).optional(),
  env: z.array(envName).optional(),
  timeout: durationSchema.optional(),
  workspace: workspaceSchema.optional(),
  ...sealFields,
  output: outputSchema.optional(),
  success: successSchema.optional(),
  stamp: z.record(z.string(), z.string()).optional(),
  ...recovery,
});

export const routerNodeSchema = z.strictObject({
  kind: z.literal("router"),
  ...common,
  routes: z.array(z.strictObject({ when: conditionSchema, to: z.array(nodeId).min(1) })).min(1),
  default: z.array(nodeId).optional(),
});

export const approvalNodeSchema = z.strictObject({
  kind: z.literal("approval"),
  ...common,
  prompt: z.string().min(1).optional(),
});

export const endNodeSchema = z.strictObject({
  kind: z.literal("end"),
  ...common,
  status: z.enum(["success", "failure", "error"]).optional(),
  output: z.unknown().optional(),
});

/** A sub-graph (ADR 0024): another graph file run as a nested scope. `use` is relative to
 *  the file that names it; `inputs` are templates rendered in this graph's scope. */
export const graphNodeSchema = z.strictObject({
  kind: z.literal("graph"),
  ...common,
  use: z
    .string()
    .min(1, { message: "use names a graph file" })
    .meta({ description: "The sub-graph's file, relative to this file: ./review.yaml" }),
  inputs: z.record(z.string(), z.unknown()).optional().meta({ description: "The sub-graph's inputs (templates rendered in this graph)." }),
  caps: runCapsSchema.optional(),
});

/** Combines the work of upstream worktrees on a new branch (ADR 0021). Top level only. */
export const mergeNodeSchema = z.strictObject({
  kind: z.literal("merge"),
  ...common,
  from: z
    .union([nodeId, z.array(nodeId).min(1, { message: "from lists at least one node" })])
    .meta({ description: "A map whose passed branches' worktrees to merge, or a list of nodes with worktrees, merged in this order." }),
  into: z.string().min(1).optional().meta({ description: "The new branch (a template); default vouch/{{ run.id }}/<node>." }),
  base: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "The git ref the merge starts from; default HEAD of the repository holding cwd." }),
  cwd: z.string().min(1).optional(),
  env: z.array(envName).optional(),
  success: z.strictObject({ checks: z.array(checkRefSchema).optional() }).optional(),
});

/** Nodes allowed inside a map branch: every kind but map (no nested maps in v1, ADR 0002). */
export const branchNodeSchema = z.discriminatedUnion("kind", [
  agentNodeSchema,
  scriptNodeSchema,
  routerNodeSchema,
  approvalNodeSchema,
  endNodeSchema,
  graphNodeSchema,
]);

export const mapNodeSchema = z.strictObject({
  kind: z.literal("map"),
  ...common,
  over: z.string().min(1).meta({ description: "A path to a list: inputs.x or nodes.id.output.field" }),
  as: z
    .string()
    .regex(new RegExp(INPUT_NAME_PATTERN), { message: "as names the item: only letters, digits and _, not starting with a digit" })
    .optional(),
  max_concurrency: z.number().int().positive().optional(),
  fail_fast: z.boolean().optional(),
  passes: z.union([z.enum(["all", "any"]), z.strictObject({ min: z.number().int().min(1) })]).optional(),
  branch: z.record(nodeId, branchNodeSchema),
  verdict: z.string().min(1).optional(),
});

export const nodeSchema = z.discriminatedUnion("kind", [
  agentNodeSchema,
  scriptNodeSchema,
  mapNodeSchema,
  routerNodeSchema,
  approvalNodeSchema,
  endNodeSchema,
  graphNodeSchema,
  mergeNodeSchema,
]);

export const inputSchema = z.strictObject({
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
});

export const defaultsSchema = z.strictObject({
  ...agentFields,
  retry: retrySchema.optional(),
  reruns: reruns.optional().meta({ description: "The reruns of this file's checks that do not set their own (ADR 0066)." }),
  workspace: defaultsWorkspaceSchema
    .optional()
    .meta({ description: "The workspace of agent nodes that do not set their own (script nodes do not inherit it)." }),
});

export const graphSchema = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1, { message: "version must be 1 (the only graph language version)" }),
    name: z.string().min(1),
    description: z.string().optional(),
    origin: z.enum(["user", "planned"]).optional(),
    inputs: z.record(inputName, inputSchema).optional(),
    defaults: defaultsSchema.optional(),
    caps: runCapsSchema.optional(),
    concurrency: z.number().int().positive().optional(),
    executor: z
      .string()
      .regex(EXECUTOR_URL_PATTERN, { error: (issue) => executorUrlProblem(String(issue.input)) ?? "executor has the wrong form" })
      .optional()
      .meta({
        description:
          "Where map branches run: a URL whose scheme names the executor. redis://HOST:PORT[/DB] (rediss:// for TLS) hands each branch to `vouch worker`s (docs/scale-out.md). --executor overrides it.",
      }),
    checks: z.record(z.string().min(1), checkDefSchema).optional(),
    checks_from: z
      .array(z.string().min(1, { message: "a checks_from entry is a path to a checks file" }))
      .optional()
      .meta({ description: "Checks files (only a checks: mapping) merged into this graph's library; paths relative to this file." }),
    notify: z
      .array(notifierSchema)
      .optional()
      .meta({ description: "Whom to tell while the run goes on: approvals waiting, usage-limit pauses, the run's end (ADR 0064)." }),
    nodes: z.record(nodeId, nodeSchema).refine((nodes) => Object.keys(nodes).length > 0, { message: "a graph needs at least one node" }),
  })
  .meta({ title: "vouch graph", description: "A graph of coding-agent work (vouch graph language, version 1)." });

export type GraphFile = z.output<typeof graphSchema>;
export type GraphNode = z.output<typeof nodeSchema>;
export type BranchNode = z.output<typeof branchNodeSchema>;
export type AgentNode = z.output<typeof agentNodeSchema>;
export type ScriptNode = z.output<typeof scriptNodeSchema>;
export type MapNode = z.output<typeof mapNodeSchema>;
export type RouterNode = z.output<typeof routerNodeSchema>;
export type ApprovalNode = z.output<typeof approvalNodeSchema>;
export type EndNode = z.output<typeof endNodeSchema>;
export type SubgraphNode = z.output<typeof graphNodeSchema>;
export type MergeNode = z.output<typeof mergeNodeSchema>;
export type Defaults = z.output<typeof defaultsSchema>;
export type InputDef = z.output<typeof inputSchema>;

/** The JSON Schema of a graph file, for editors (`vouch schema`). */
export function graphJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(graphSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
