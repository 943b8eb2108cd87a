// The Codex CLI adapter: `codex exec --json -` with the prompt on stdin (then
// closed), so model text never sits on a command line and nothing blocks on
// "Reading additional input from stdin". Codex has no turn or budget flag and
// reports no cost: turns are counted from `turn.completed` and supervised by
// the runner's backstop; a budget cap is refused. permission_mode takes
// Codex's own sandbox names (-s).
import type { AgentAssignment, SittingProgress } from "../../engine/ports.ts";
import type { Tokens } from "../../engine/events.ts";
import { inclusiveTokens, sumTokens } from "./tokens.ts";
import { JsonDocumentReader, lastLine, typedEvent } from "./json-documents.ts";
import { supervision } from "./argv-format.ts";
import type { Guarantees, HarnessAdapter, HarnessCommand, ParsedSitting, StreamEnd, StreamParser } from "./types.ts";
import { isObject, type JsonObject } from "../../engine/json-object.ts";

export const CODEX_GUARANTEES: Guarantees = {
  caps: { turns: "supervised", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: true,
  tools: false,
  permissionMode: true,
};

export const CODEX_SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

export function buildCodexCommand(a: AgentAssignment): HarnessCommand {
  const argv = ["codex", "exec", "--json"];
  if (a.model !== undefined) argv.push("-m", a.model);
  if (a.permissionMode !== undefined) argv.push("-s", a.permissionMode);
  argv.push("-"); // read the prompt from stdin
  return { argv, stdin: a.prompt, ...supervision(CODEX_GUARANTEES, a) };
}

type Json = JsonObject;

export function createCodexParser(): StreamParser {
  const reader = new JsonDocumentReader();
  const usage: Tokens[] = [];
  let turns = 0;
  let sessionId: string | undefined;
  let lastMessage = "";
  let activity: string | undefined;
  let turnFailed: string | undefined;
  let lastError: string | undefined;
  let eventsSeen = 0;

  const progress = (): SittingProgress => ({
    turns,
    ...(usage.length > 0 ? { tokens: sumTokens(usage) } : {}),
    ...(activity !== undefined ? { activity } : {}),
  });

  const handle = (value: unknown): boolean => {
    const event = typedEvent(value);
    if (!event) return false;
    eventsSeen += 1;
    switch (event.type) {
      case "thread.started":
        if (typeof event.thread_id === "string") sessionId = event.thread_id;
        return false;
      case "turn.completed":
        turns += 1;
        if (isObject(event.usage)) usage.push(inclusiveTokens(event.usage.input_tokens, event.usage.cached_input_tokens, event.usage.output_tokens));
        return true;
      case "turn.failed":
        turnFailed = isObject(event.error) && typeof event.error.message === "string" ? event.error.message : "turn failed";
        return false;
      case "error":
        // Non-fatal retries look like this too: only the exit status tells.
        if (typeof event.message === "string") lastError = event.message;
        return false;
      case "item.started":
      case "item.updated":
      case "item.completed":
        return isObject(event.item) ? handleItem(event.item, event.type === "item.completed") : false;
      default:
        return false;
    }
  };

  const handleItem = (item: Json, completed: boolean): boolean => {
    switch (item.type) {
      case "agent_message":
        if (completed && typeof item.text === "string") lastMessage = item.text;
        if (typeof item.text === "string") activity = lastLine(item.text, 120);
        return true;
      case "command_execution":
        activity = `command ${typeof item.command === "string" ? lastLine(item.command, 100) : ""}`.trim();
        return true;
      case "mcp_tool_call":
        activity = `tool ${typeof item.tool === "string" ? item.tool : "mcp"}`;
        return true;
      case "file_change":
        activity = "file change";
        return true;
      case "web_search":
        activity = "web search";
        return true;
      case "error":
        if (typeof item.message === "string") lastError = item.message;
        return false;
      default:
        return false;
    }
  };

  return {
    feed: (line) => (reader.feed(line).map(handle).some(Boolean) ? progress() : null),
    progress,
    finish(end: StreamEnd): ParsedSitting {
      reader.finish().forEach(handle);
      const base = {
        resultText: lastMessage,
        turns: eventsSeen > 0 ? turns : null,
        costUsd: null, // Codex reports no cost: unknown, never 0.
        tokens: usage.length > 0 ? sumTokens(usage) : null,
        permissionDenials: 0,
        ...(sessionId ? { sessionId } : {}),
      };
      if (turnFailed !== undefined) return { ...base, stopReason: "crashed", error: `codex turn failed: ${turnFailed}` };
      if (end.exit === 0 && turns > 0) return { ...base, stopReason: "complete" };
      const how = end.signal ? `killed by ${end.signal}` : `exit ${end.exit ?? "unknown"}`;
      const why = lastError ?? lastLine(end.stderrTail) ?? "";
      const what = end.exit === 0 ? "codex ended without a completed turn" : `codex failed (${how})`;
      return { ...base, stopReason: "crashed", error: `${what}${why ? `: ${why}` : ""}${reader.garbageNote()}` };
    },
  };
}


export const codexAdapter: HarnessAdapter = {
  name: "codex",
  binary: "codex",
  protocol: "json-stream",
  guarantees: CODEX_GUARANTEES,
  permissionModes: CODEX_SANDBOX_MODES,
  buildCommand: buildCodexCommand,
  createParser: () => createCodexParser(),
};
