// What a turn is in `codex exec --json` output (ADR 0017). Codex emits
// `turn.completed` once per exec, however many model requests it made, so
// turns are counted from the items instead: a model response starts at the
// first item after the tool calls of the previous response finished, and
// every tool result is followed by one more model response. Pure: fed one
// event at a time, it says how many model responses the stream has shown.

/** Items that are tool calls run for the model: their results go back to it. */
const TOOL_ITEMS = new Set(["command_execution", "mcp_tool_call", "file_change", "web_search", "collab_tool_call"]);
/** Items that only a model response produces. */
const OUTPUT_ITEMS = new Set(["agent_message", "reasoning", "todo_list", ...TOOL_ITEMS]);

export interface CodexTurnCounter {
  /** An item event (`item.started|updated|completed`) of type `itemType` and id `itemId`. */
  item(phase: "started" | "updated" | "completed", itemType: unknown, itemId?: unknown): void;
  /** `turn.completed`: the response that ended the exec may have shown no item. */
  turnCompleted(): void;
  readonly turns: number;
}

export function codexTurnCounter(): CodexTurnCounter {
  let turns = 0;
  let inResponse = false;
  // Which started calls have not completed, by item id: a count would let a
  // call reported only as completed (or completed twice) close another one.
  const openTools = new Set<string>();
  let anonymousOpen = 0; // calls without an id, matched by count only
  return {
    item(phase, itemType, itemId) {
      if (typeof itemType !== "string" || !OUTPUT_ITEMS.has(itemType)) return;
      if (!inResponse) {
        inResponse = true;
        turns += 1;
      }
      if (!TOOL_ITEMS.has(itemType)) return;
      // Parallel calls of one response all start before their results arrive:
      // the response is over when every started call has completed.
      // (A call reported only as completed, never started, counts as done.)
      const id = typeof itemId === "string" ? itemId : null;
      if (phase === "started") {
        if (id === null) anonymousOpen += 1;
        else openTools.add(id);
      } else if (phase === "completed") {
        if (id === null) anonymousOpen = Math.max(0, anonymousOpen - 1);
        else openTools.delete(id);
        if (openTools.size === 0 && anonymousOpen === 0) inResponse = false;
      }
    },
    turnCompleted() {
      // After a tool result codex always asks the model again: that last
      // response happened even when it produced no item.
      if (!inResponse) turns += 1;
      inResponse = false;
    },
    get turns() {
      return turns;
    },
  };
}
