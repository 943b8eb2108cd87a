// --executor / the graph's `executor:`: where map branches run, a URL whose scheme
// names the executor (src/executor/registry.ts). Checked before the ledger opens, so
// an unreachable executor is exit 2 and leaves no run behind.
import { UsageError } from "../engine/errors.ts";
import { sanitize } from "../tui/text.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import type { BranchExecutor, RemoteWorkspace } from "../engine/ports.ts";

export interface ChosenExecutor {
  executor: BranchExecutor;
  /** For run.started: the URL without a password. */
  executorUrl: string;
  /** Branches with worktrees: the repository the workers fetch and push (ADR 0029). */
  remoteWorkspace?: RemoteWorkspace;
}

/** What cannot run on a worker, refused at load with where it is. */
export function refuseForWorkers(graph: GraphFile, url: string): void {
  for (const [mapId, node] of Object.entries(graph.nodes)) {
    if (node.kind !== "map") continue;
    for (const [id, b] of Object.entries(node.branch)) {
      if (b.kind === "approval") {
        throw new UsageError(
          `--executor ${url}: node ${mapId}.branch.${id} is an approval; approvals inside map branches cannot run on workers`,
          "run this graph without --executor, or move the approval out of the map",
        );
      }
      if (b.kind === "graph") {
        throw new UsageError(
          `--executor ${url}: node ${mapId}.branch.${id} runs a sub-graph; sub-graphs inside map branches cannot run on workers yet (docs/LIMITATIONS.md)`,
          "run this graph without --executor",
        );
      }
      // A session is kept where its CLI ran: an outer node's is on this machine, not the worker's.
      const session = b.kind === "agent" ? b.session : undefined;
      const target = session?.continue ?? session?.fork;
      if (target !== undefined && !Object.hasOwn(node.branch, target)) {
        const verb = session!.continue !== undefined ? "continues" : "forks";
        throw new UsageError(
          `--executor ${url}: node ${mapId}.branch.${id} ${verb} the session of "${target}", outside the branch; a worker cannot reach a session kept on this machine`,
          "run this graph without --executor, or start the branch's session afresh (drop session:)",
        );
      }
    }
  }
}

/** What choosing an executor needs of the command: its environment and folder (the fleet
 *  key, the Redis password, the wait bounds: never from the command line, ADR 0045), where
 *  the executor's notices go, and --fleet-key-file. */
export interface ExecutorContext {
  env: Record<string, string | undefined>;
  cwd: string;
  err(text: string): void;
  fleetKeyFile?: string;
}

const QUIET_MS = 30_000;
const RECONNECT_MS = 30_000;

/** A whole number of milliseconds from the environment, at least `min`; `fallback` when unset. */
export function envMs(env: Record<string, string | undefined>, name: string, fallback: number, min: number): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name}="${v}": a whole number of milliseconds, at least ${min}`);
  return n;
}

/** @param baseDir the run's folder: its repository is the one branch worktrees come from */
export async function chooseExecutor(
  flag: string | undefined,
  graph: GraphFile,
  baseDir: string,
  cx: ExecutorContext,
  recorded?: string,
): Promise<ChosenExecutor | undefined> {
  const text = flag ?? graph.executor ?? recorded;
  if (text === undefined || text === "local") return undefined;
  const { executorEndpoint } = await import("../executor/registry.ts");
  const endpoint = await executorEndpoint(text, flag !== undefined ? "--executor" : "executor:", cx.env, cx.cwd);
  refuseForWorkers(graph, endpoint.display);
  const { fleetKeyFrom } = await import("../executor/fleet-key.ts");
  const key = fleetKeyFrom(cx.env, cx.cwd, cx.fleetKeyFile, `--executor ${endpoint.display}`);
  const quietMs = envMs(cx.env, "VOUCH_EXECUTOR_QUIET_MS", QUIET_MS, 100);
  const reconnectMs = envMs(cx.env, "VOUCH_EXECUTOR_RECONNECT_MS", RECONNECT_MS, 100);
  // Before connecting: a base commit the remote lacks is refused with no connection made, no job, no run.
  const { prepareRemoteWorkspace } = await import("../workspace/remote-workspace.ts");
  const remoteWorkspace = await prepareRemoteWorkspace(graph, baseDir, endpoint.display);
  // Worker names and job ids come through Redis: what reaches the terminal is sanitized.
  const notice = (line: string) => cx.err(sanitize(line));
  const executor = await endpoint.open({ key, notice, quietMs, reconnectMs });
  return { executor, executorUrl: endpoint.display, ...(remoteWorkspace ? { remoteWorkspace } : {}) };
}
