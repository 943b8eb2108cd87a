// A planned graph's agents may not change what the user's checks run (ADR 0047):
// every checks file a planned graph names says which files of the tree its
// checks run (`protect:`), and those globs are added to the protect list of every
// agent node's worktree, after validation (as the library's checks are merged),
// so an attempt that rewrites a check's script is `tampered` and the checks run
// the base's copy. Pure.
import type { AgentNode, GraphFile } from "./schema.ts";
import type { PathProblem } from "./problem.ts";

/** A checks_from file that says nothing of what its checks run cannot guard a planned graph. */
export function unprotectedProblems(unprotected: readonly { entry: string; index: number }[]): PathProblem[] {
  return unprotected.map(({ entry, index }) => ({
    path: ["checks_from", index],
    message: `checks file ${JSON.stringify(entry)} does not say which files its checks run (protect:): in a planned graph (origin: planned) an agent could rewrite them, and the check would run its words`,
    hint: 'add protect: ["scripts/**", "test/**"] (the files your checks run, repository paths) to that checks file, or protect: [] if they run nothing from the tree',
  }));
}

function withProtect(node: AgentNode, inherited: readonly string[] | undefined, add: readonly string[]): AgentNode {
  const own = node.workspace?.protect ?? inherited ?? [];
  return { ...node, workspace: { ...node.workspace, protect: [...own, ...add.filter((g) => !own.includes(g))] } };
}

/** The graph with the library's globs added to every agent node's protect (own or inherited). */
export function withLibraryProtect(graph: GraphFile, add: readonly string[]): GraphFile {
  if (add.length === 0) return graph;
  const inherited = graph.defaults?.workspace?.protect;
  const nodes = Object.fromEntries(
    Object.entries(graph.nodes).map(([id, node]) => {
      if (node.kind === "agent") return [id, withProtect(node, inherited, add)];
      if (node.kind !== "map") return [id, node];
      const branch = Object.fromEntries(
        Object.entries(node.branch).map(([bid, b]) => [bid, b.kind === "agent" ? withProtect(b, inherited, add) : b]),
      );
      return [id, { ...node, branch }];
    }),
  ) as GraphFile["nodes"];
  return { ...graph, nodes };
}
