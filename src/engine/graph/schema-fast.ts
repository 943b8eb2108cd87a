// The fast graph check (ADR 0083): the graph schema of schema.ts again, in the pieces of
// schema-fast-kit.ts, so a valid graph is read without loading zod or building its ~250
// schema objects (about 13 ms of a 28 ms `vouch validate`). It gives the value zod would
// give (durations in ms, keys in zod's order) or UNSURE, and then the loader asks zod,
// which alone says what is wrong.
// A change to schema.ts needs the same change here: test/graph/schema-fast*.test.ts fail
// on any value the two read differently, and on a shipped graph that is not read here.
import { CHECK_TIMEOUT_CEILING_MS, DURATION_PATTERN, parseDuration } from "./duration.ts";
import { conditionProblems } from "./condition-rules.ts";
import { HARNESS_NAMES } from "../harnesses.ts";
import { SANDBOX_MODES } from "../sandbox.ts";
import { EXECUTOR_URL_PATTERN } from "./executor-url.ts";
import { ENV_NAME_PATTERN } from "./env-name.ts";
import { NOTIFY_EVENTS, NOTIFY_TIMEOUT_CEILING_MS, NOTIFY_URL_PATTERN } from "./notify-constants.ts";
import {
  CLAIM_PATH_PATTERN,
  INPUT_NAME_PATTERN,
  KEEP_POLICIES,
  NODE_ID_PATTERN,
  RERUNS_MAX,
  RETRY_CAUSES,
  WITNESS_KINDS,
  WORKSPACE_MODES,
} from "./schema-constants.ts";
import {
  any,
  arr,
  bool,
  byKind,
  either,
  num,
  obj,
  oneOf,
  opt,
  record,
  req,
  str,
  refine,
  UNSURE,
  type Piece,
  type Shape,
} from "./schema-fast-kit.ts";

const text = str();
const nonEmpty = str(1);
const nodeId = str(0, new RegExp(NODE_ID_PATTERN));
const envName = str(0, new RegExp(ENV_NAME_PATTERN));
const inputName = str(0, new RegExp(INPUT_NAME_PATTERN));
const positive = num((n) => n > 0);
const positiveInt = num((n) => n > 0, true);
const atLeastOne = num((n) => n >= 1, true);

const duration = refine(str(0, new RegExp(DURATION_PATTERN)), (t: string) => {
  const ms = parseDuration(t)!;
  return ms > 0 ? ms : UNSURE;
});
const checkTimeout = refine(duration, (ms: number) => (ms <= CHECK_TIMEOUT_CEILING_MS ? ms : UNSURE));
const sittingDuration = refine(str(0, new RegExp(`^none$|${DURATION_PATTERN}`)), (t: string) => {
  if (t === "none") return "none";
  const ms = parseDuration(t)!;
  return ms > 0 ? ms : UNSURE;
});
const condition = refine(record(text, any), (c: Record<string, unknown>) => (conditionProblems(c).length === 0 ? c : UNSURE));

const caps = obj({ turns: opt(positiveInt), budget_usd: opt(positive), wall: opt(sittingDuration), idle: opt(sittingDuration) });
const runCaps = obj({ budget_usd: opt(positive), wall: opt(duration) });
const expect = either(
  oneOf(["exit_zero", "empty_output"]),
  obj({ exit: req(num((n) => n >= 0 && n <= 255, true)) }),
  obj({ output_matches: req(nonEmpty) }),
);
const reruns = num((n) => n >= 1 && n <= RERUNS_MAX, true);
const checkBody: Shape = {
  timeout: opt(checkTimeout),
  expect: opt(expect),
  description: opt(text),
  reruns: opt(reruns),
  from_base: opt(arr(nonEmpty)),
  from_result: opt(arr(nonEmpty)),
  network: opt(bool),
  witness: opt(oneOf(WITNESS_KINDS)),
};
export const fastCheckDef = obj({ run: req(nonEmpty), ...checkBody });
const checkRef = either(nonEmpty, obj({ name: req(nonEmpty), run: req(nonEmpty), ...checkBody }));
const checkList = opt(arr(checkRef));
const success = obj({ exit_zero: opt(bool), result_matches: opt(nonEmpty), checks: checkList });
const retry = obj({
  max: req(atLeastOne),
  on: opt(arr(oneOf(RETRY_CAUSES), 1)),
  backoff: opt(duration),
  session: opt(oneOf(["fresh", "continue"])),
  max_cost: opt(num((n) => n > 0 && n <= 1)),
});
const output = obj({ format: opt(oneOf(["text", "json"])), schema: opt(record(text, any)) });
const feedback = obj({ to: req(nodeId), max: req(atLeastOne), when: opt(condition) });
const workspaceFields: Shape = {
  mode: opt(oneOf(WORKSPACE_MODES)),
  base: opt(nonEmpty),
  protect: opt(arr(nonEmpty)),
  keep: opt(oneOf(KEEP_POLICIES)),
  deps: opt(arr(nonEmpty)),
};
const workspace = obj({ ...workspaceFields, from: opt(nodeId) });
const session = obj({ continue: opt(nodeId), fork: opt(nodeId) });
const common: Shape = { description: opt(text), needs: opt(arr(nodeId)), when: opt(condition) };
const seal: Shape = { sandbox: opt(oneOf(SANDBOX_MODES)), network: opt(bool) };
const agentFields: Shape = {
  harness: opt(oneOf(HARNESS_NAMES)),
  acp: opt(obj({ command: req(arr(nonEmpty, 1)) })),
  model: opt(nonEmpty),
  tools: opt(arr(nonEmpty)),
  permission_mode: opt(nonEmpty),
  cwd: opt(nonEmpty),
  env: opt(arr(envName)),
  caps: opt(caps),
  ...seal,
};
const recovery: Shape = {
  retry: opt(retry),
  fallback: opt(nodeId),
  exhausted: opt(obj({ output: req(any) })),
  feedback: opt(feedback),
};
const stamp = opt(record(text, text));
const kind = (k: string) => req(oneOf([k]));

const agent = obj({
  kind: kind("agent"),
  ...common,
  ...agentFields,
  prompt: req(nonEmpty),
  workspace: opt(workspace),
  session: opt(session),
  output: opt(output),
  success: opt(success),
  stamp,
  claim: opt(str(0, new RegExp(CLAIM_PATH_PATTERN))),
  ...recovery,
});
const script = obj({
  kind: kind("script"),
  ...common,
  run: opt(nonEmpty),
  argv: opt(arr(text, 1)),
  cwd: opt(nonEmpty),
  env: opt(arr(envName)),
  timeout: opt(duration),
  workspace: opt(workspace),
  ...seal,
  output: opt(output),
  success: opt(success),
  stamp,
  ...recovery,
});
const router = obj({
  kind: kind("router"),
  ...common,
  routes: req(arr(obj({ when: req(condition), to: req(arr(nodeId, 1)) }), 1)),
  default: opt(arr(nodeId)),
});
const approval = obj({ kind: kind("approval"), ...common, prompt: opt(nonEmpty) });
const end = obj({ kind: kind("end"), ...common, status: opt(oneOf(["success", "failure", "error"])), output: opt(any) });
const subgraph = obj({ kind: kind("graph"), ...common, use: req(nonEmpty), inputs: opt(record(text, any)), caps: opt(runCaps) });
const merge = obj({
  kind: kind("merge"),
  ...common,
  from: req(either(nodeId, arr(nodeId, 1))),
  into: opt(nonEmpty),
  base: opt(nonEmpty),
  cwd: opt(nonEmpty),
  env: opt(arr(envName)),
  success: opt(obj({ checks: checkList })),
});
const branchKinds = { agent, script, router, approval, end, graph: subgraph };
const map = obj({
  kind: kind("map"),
  ...common,
  over: req(nonEmpty),
  as: opt(inputName),
  max_concurrency: opt(positiveInt),
  fail_fast: opt(bool),
  passes: opt(either(oneOf(["all", "any"]), obj({ min: req(atLeastOne) }))),
  branch: req(record(nodeId, byKind(branchKinds))),
  verdict: opt(nonEmpty),
});
const node = byKind({ ...branchKinds, map, merge });

const input = obj({ description: opt(text), required: opt(bool), default: opt(any) });
const defaults = obj({
  ...agentFields,
  retry: opt(retry),
  reruns: opt(reruns),
  workspace: opt(obj(workspaceFields)),
});
const notifyTimeout = refine(str(0, new RegExp(DURATION_PATTERN)), (t: string) => {
  const ms = parseDuration(t)!;
  return ms > 0 && ms <= NOTIFY_TIMEOUT_CEILING_MS ? ms : UNSURE;
});
const notifier = obj({
  on: opt(arr(oneOf(NOTIFY_EVENTS), 1)),
  argv: opt(arr(text, 1)),
  url: opt(str(0, NOTIFY_URL_PATTERN)),
  url_env: opt(envName),
  env: opt(arr(envName)),
  timeout: opt(notifyTimeout),
});
const nodes = refine(record(nodeId, node), (n: Record<string, unknown>) => (Object.keys(n).length > 0 ? n : UNSURE));

/** The whole graph file. */
const graph: Piece = obj({
  $schema: opt(text),
  version: req(oneOf([1])),
  name: req(nonEmpty),
  description: opt(text),
  origin: opt(oneOf(["user", "planned"])),
  inputs: opt(record(inputName, input)),
  defaults: opt(defaults),
  caps: opt(runCaps),
  concurrency: opt(positiveInt),
  executor: opt(str(0, EXECUTOR_URL_PATTERN)),
  checks: opt(record(nonEmpty, fastCheckDef)),
  checks_from: opt(arr(nonEmpty)),
  notify: opt(arr(notifier)),
  nodes: req(nodes),
});

/** What zod's graphSchema gives for `raw` when the fast check is sure it is valid; else UNSURE. */
export function fastGraph(raw: unknown): unknown {
  return graph(raw);
}

const checksFile = obj({ $schema: opt(text), protect: opt(arr(nonEmpty)), checks: req(record(nonEmpty, fastCheckDef)) });

/** What zod's checksFileSchema (checks-file-zod.ts) gives for `raw` when sure; else UNSURE. */
export function fastChecksFile(raw: unknown): unknown {
  return checksFile(raw);
}
