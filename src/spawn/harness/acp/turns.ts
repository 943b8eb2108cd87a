// What a turn is on an ACP agent (ADR 0051): one model response, as on every
// harness. ACP has no event per response; its `session/update`s show what the
// model produced — message and thought chunks, tool calls — so a response
// starts at the first such output after every tool call of the previous one
// has finished (completed or failed). Tool calls are tracked by `toolCallId`:
// claude-code-acp sends `tool_call` twice for one call (pending, then with its
// input), and gemini reports a call it refused as a lone `tool_call_update`
// with status failed, which is model output all the same. Pure.

/** The update kinds only a model response produces (besides tool calls). */
const OUTPUT_UPDATES = new Set(["agent_message_chunk", "agent_thought_chunk"]);
const DONE = new Set(["completed", "failed"]);

export interface AcpTurnCounter {
  /** One `session/update`'s `update` object. */
  update(kind: string, toolCallId?: string, status?: string): void;
  /** A call that will not run (vouch refused its permission): claude-code-acp sends no end for it. */
  closed(toolCallId: string): void;
  readonly turns: number;
}

export function acpTurnCounter(): AcpTurnCounter {
  let turns = 0;
  let inResponse = false;
  const seen = new Set<string>();
  const open = new Set<string>();
  const output = () => {
    if (!inResponse) {
      inResponse = true;
      turns += 1;
    }
  };
  return {
    update(kind, toolCallId, status) {
      if (OUTPUT_UPDATES.has(kind)) {
        // Text after tool results opens the next response; text within one does nothing.
        if (open.size === 0 && !inResponse) output();
        return;
      }
      if (kind !== "tool_call" && kind !== "tool_call_update") return;
      if (toolCallId === undefined || toolCallId.length > 256) return;
      if (!seen.has(toolCallId)) {
        // A call first seen: the model asked for it, in this response or a new one.
        seen.add(toolCallId);
        output();
        if (seen.size > 100_000) seen.clear(); // bounded: ids only matter while their call is open
        open.add(toolCallId);
      }
      if (status !== undefined && DONE.has(status) && open.delete(toolCallId) && open.size === 0) inResponse = false;
    },
    closed(toolCallId) {
      if (open.delete(toolCallId) && open.size === 0) inResponse = false;
    },
    get turns() {
      return turns;
    },
  };
}
