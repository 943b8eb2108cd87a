// An ACP sitting's parser (ADR 0051): stdout lines go to the conversation
// (conversation.ts), which answers on stdin; progress arrives between lines
// (ConversationHooks.progressed); the verdict comes from how the conversation
// ended (verdict.ts), then a usage-limit reading of a crash, then an error with
// no raw escape sequence (the agent's text is untrusted).
import type { AgentAssignment } from "../../../engine/ports.ts";
import { sanitize } from "../../../text/sanitize.ts";
import { withUsageLimit } from "../common/usage-limit.ts";
import type { ParsedSitting, StreamEnd, StreamParser } from "../types.ts";
import { AcpConversation } from "./conversation.ts";
import { AcpSessionState } from "./session-state.ts";
import { acpLimit, decideAcp } from "./verdict.ts";

/** How long the SDK may take to read what was left once the program ended. */
export const SETTLE_MS = 2_000;

export function createAcpParser(a: AgentAssignment, program: string, countsTurns: boolean): StreamParser {
  const state = new AcpSessionState(countsTurns);
  const conversation = new AcpConversation(a, state);
  return {
    feed(line) {
      conversation.line(line);
      return null; // progress comes when the SDK has read the message (converse's `progressed`)
    },
    progress: () => state.progress(),
    reported: () => state.ending.kind !== "none",
    converse: (stdin, hooks) => conversation.start(stdin, hooks),
    stopping: () => conversation.stopping(),
    settle: () => conversation.settle(SETTLE_MS),
    finish(end: StreamEnd): ParsedSitting {
      const sitting = withUsageLimit(decideAcp(state, end, program), `acp agent ${program}`, end, (ctx) => acpLimit(state, ctx));
      return sitting.error !== undefined ? { ...sitting, error: sanitize(sitting.error) } : sitting;
    },
  };
}
