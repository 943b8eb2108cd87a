// The scenarios whose real claude output is kept in test/fixtures/claude-real/
// (each <name>.jsonl is what `claude -p --output-format stream-json --verbose`
// printed against the fake server). The fast unit tests parse the files
// (test/harness/claude-real.test.ts); claude-fixtures.test.ts re-runs each
// scenario with the pinned claude and fails when the shape it prints today
// is not the shape of the file. Re-record with VOUCH_RECORD_FIXTURES=1.
import { join } from "node:path";
import { ROOT } from "./lib/clis.ts";
import { always, answer, apiError, text, toolUse, toolsForever, type Script } from "./servers/anthropic.ts";
import { MODEL, usageCosting } from "./claude-pricing.ts";

export const REAL_FIXTURES = join(ROOT, "test", "fixtures", "claude-real");

export interface RecordedScenario {
  name: string;
  script: Script;
  /** Flags after the ones vouch always sends. */
  flags: string[];
}

/** What vouch always sends claude (src/spawn/harness/claude/adapter.ts), with the contract model. */
export const BASE_FLAGS = ["-p", "--output-format", "stream-json", "--verbose", "--model", MODEL];

const SUB_PROMPT = "Say sub-hello.";

/** The main conversation hands the work to a sub-agent (claude's Agent tool),
 *  which answers; then the main one answers. The sub-agent's messages are in the
 *  stream with their parent_tool_use_id set. */
export const delegating: Script = (_n, body) => {
  const messages = JSON.stringify(body.messages ?? []);
  if (messages.includes(SUB_PROMPT) && !messages.includes("toolu_")) return answer("sub-hello");
  if (!messages.includes("tool_result")) {
    return {
      kind: "message",
      blocks: [text("Delegating."), toolUse("Agent", { description: "say hello", prompt: SUB_PROMPT, subagent_type: "general-purpose" })],
      stopReason: "tool_use",
    };
  }
  return answer("Main done.");
};

export const RECORDED: readonly RecordedScenario[] = [
  { name: "success", script: always(answer("Hello there.", { input_tokens: 12, output_tokens: 5 })), flags: [] },
  { name: "max-turns", script: toolsForever, flags: ["--max-turns", "2", "--tools=Glob", "--allowedTools=Glob"] },
  { name: "max-budget", script: always(answer("Hello.", usageCosting(7.5))), flags: ["--max-budget-usd", "0.5"] },
  { name: "api-429", script: always(apiError(429, { "retry-after": "0" })), flags: [] },
  { name: "disconnect", script: always({ kind: "disconnect" }), flags: [] },
  { name: "subagent", script: delegating, flags: ["--tools=Agent", "--allowedTools=Agent"] },
];
