// Which handler runs a node of each kind. Maps and sub-graphs are not handled
// here: they open scopes of their own, so their scope starts them (startMap, startGraph).
import type { ScopeNode } from "../scheduler/scope-index.ts";
import { runAgentNode } from "./agent-node.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";
import { runScriptNode } from "./script-node.ts";
import { runMergeNode } from "./merge-node.ts";
import { runApprovalNode, runEndNode, runRouterNode } from "./simple-nodes.ts";

export function handle(env: NodeEnv, node: ScopeNode): Promise<NodeResult> {
  switch (node.kind) {
    case "agent":
      return runAgentNode(env, node);
    case "script":
      return runScriptNode(env, node);
    case "router":
      return runRouterNode(env, node);
    case "approval":
      return runApprovalNode(env, node);
    case "end":
      return runEndNode(env, node);
    case "merge":
      return runMergeNode(env, node);
    case "map":
      throw new Error("a map is started by its scope's startMap");
    case "graph":
      throw new Error("a sub-graph is started by its scope's startGraph");
  }
}
