// The TUI's cost of a node, as its rows show it.
import type { NodeView } from "../../src/tui/view-model.ts";

export function tuiNodeCost(n: NodeView): number | null {
  return n.cost_usd;
}
