// --executor / the graph's `executor:`: where map branches run. Checked before the
// ledger opens, so an unreachable Redis is exit 2 and leaves no run behind.
import { UsageError } from "../engine/errors.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { workspaceOf } from "../engine/workspace/spec.ts";
import type { BranchExecutor } from "../engine/ports.ts";

export interface ChosenExecutor {
  executor: BranchExecutor;
  /** For run.started: the URL without a password. */
  executorUrl: string;
}

/** What cannot run on a worker, refused at load with where it is. */
export function refuseForWorkers(graph: GraphFile, url: string): void {
  for (const [mapId, node] of Object.entries(graph.nodes)) {
    if (node.kind !== "map") continue;
    for (const [id, b] of Object.entries(node.branch)) {
      if (b.kind === "approval") {
        throw new UsageError(`--executor ${url}: node ${mapId}.branch.${id} is an approval; approvals inside map branches cannot run on workers`, "run this graph without --executor, or move the approval out of the map");
      }
      if (b.kind === "graph") {
        throw new UsageError(`--executor ${url}: node ${mapId}.branch.${id} runs a sub-graph; sub-graphs inside map branches cannot run on workers yet (docs/LIMITATIONS.md)`, "run this graph without --executor");
      }
      // A session is kept where its CLI ran: an outer node's is on this machine, not the worker's.
      const session = b.kind === "agent" ? b.session : undefined;
      const target = session?.continue ?? session?.fork;
      if (target !== undefined && !Object.hasOwn(node.branch, target)) {
        const verb = session!.continue !== undefined ? "continues" : "forks";
        throw new UsageError(`--executor ${url}: node ${mapId}.branch.${id} ${verb} the session of "${target}", outside the branch; a worker cannot reach a session kept on this machine`, "run this graph without --executor, or start the branch's session afresh (drop session:)");
      }
      // What the node works in once defaults apply: defaults.workspace gives branch agents a worktree too.
      if (workspaceOf(graph, b) !== null) {
        throw new UsageError(`--executor ${url}: node ${mapId}.branch.${id} has a workspace; branches with workspaces cannot run on workers yet (docs/LIMITATIONS.md)`, "run this graph without --executor");
      }
    }
  }
}

export async function chooseExecutor(flag: string | undefined, graph: GraphFile, recorded?: string): Promise<ChosenExecutor | undefined> {
  const text = flag ?? graph.executor ?? recorded;
  if (text === undefined || text === "local") return undefined;
  const { parseRedisUrl } = await import("../executor/redis/url.ts");
  const target = parseRedisUrl(text, flag !== undefined ? "--executor" : "executor:");
  refuseForWorkers(graph, target.display);
  const { RedisExecutor } = await import("../executor/redis/redis-executor.ts");
  return { executor: await RedisExecutor.open(target), executorUrl: target.display };
}
