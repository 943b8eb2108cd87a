// --executor / the graph's `executor:`: where map branches run, a URL whose scheme
// names the executor (src/executor/registry.ts). Checked before the ledger opens, so
// an unreachable executor is exit 2 and leaves no run behind.
import { UsageError } from "../engine/errors.ts";
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

/** @param baseDir the run's folder: its repository is the one branch worktrees come from */
export async function chooseExecutor(
  flag: string | undefined,
  graph: GraphFile,
  baseDir: string,
  recorded?: string,
): Promise<ChosenExecutor | undefined> {
  const text = flag ?? graph.executor ?? recorded;
  if (text === undefined || text === "local") return undefined;
  const { executorEndpoint } = await import("../executor/registry.ts");
  const endpoint = await executorEndpoint(text, flag !== undefined ? "--executor" : "executor:");
  refuseForWorkers(graph, endpoint.display);
  // Before connecting: a base commit the remote lacks is refused with no connection made, no job, no run.
  const { prepareRemoteWorkspace } = await import("../workspace/remote-workspace.ts");
  const remoteWorkspace = await prepareRemoteWorkspace(graph, baseDir, endpoint.display);
  return { executor: await endpoint.open(), executorUrl: endpoint.display, ...(remoteWorkspace ? { remoteWorkspace } : {}) };
}
