// Builds Claude Code print-mode output in the recorded stream-json shape
// (ADR 0005, test/fixtures/claude/): system init, assistant messages with
// tool_use blocks, user tool_result blocks, and the final result object.
// Used to write the replay fixtures of the shipped graphs.
import type { ReplayEdit } from "../../src/spawn/harness/replay/edits.ts";

/** The tools of a sitting that may edit its folder. */
export const EDIT_TOOLS = ["Read", "Grep", "Glob", "Edit", "Write", "Bash"];

export interface ToolStep {
  tool: string;
  input: Record<string, unknown>;
  result: string;
}

export interface SittingSpec {
  session: string;
  model?: string;
  cwd?: string;
  tools?: string[];
  steps: ToolStep[];
  /** The final text (the `result` field). */
  text: string;
  subtype?: "success" | "error_max_turns" | "error_max_budget_usd" | "error_during_execution";
  isError?: boolean;
  /** num_turns; defaults to steps + 1. */
  turns?: number;
  costUsd: number;
  errors?: string[];
  /** What the sitting's Write/Edit tools left in its folder, written beside the
   *  stream as `<name>.edits.json` and applied by the replay harness (ADR 0021). */
  edits?: ReplayEdit[];
}

const MODEL = "claude-opus-5";

function usage(i: number) {
  return {
    input_tokens: 2 + i,
    cache_creation_input_tokens: i === 0 ? 1800 : 120,
    cache_read_input_tokens: 1800 + i * 900,
    output_tokens: 40 + i * 12,
  };
}

export function claudeStream(spec: SittingSpec): string {
  const model = spec.model ?? MODEL;
  const lines: unknown[] = [];
  const session_id = spec.session;
  lines.push({
    type: "system",
    subtype: "init",
    session_id,
    cwd: spec.cwd ?? "/work/project",
    model,
    tools: spec.tools ?? ["Read", "Grep", "Glob"],
    permissionMode: "dontAsk",
    claude_code_version: "2.1.220",
  });
  spec.steps.forEach((step, i) => {
    const id = `toolu_${session_id.slice(0, 8)}_${i + 1}`;
    lines.push({
      type: "assistant",
      session_id,
      message: {
        id: `msg_${session_id.slice(0, 8)}_${i + 1}`,
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "tool_use", id, name: step.tool, input: step.input }],
        stop_reason: "tool_use",
        usage: usage(i),
      },
    });
    lines.push({
      type: "user",
      session_id,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: step.result }] },
    });
  });
  const subtype = spec.subtype ?? "success";
  if (subtype === "success") {
    lines.push({
      type: "assistant",
      session_id,
      message: {
        id: `msg_${session_id.slice(0, 8)}_final`,
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "text", text: spec.text }],
        stop_reason: "end_turn",
        usage: usage(spec.steps.length),
      },
    });
  }
  const turns = spec.turns ?? spec.steps.length + 1;
  const totals = spec.steps.reduce(
    (acc, _s, i) => {
      const u = usage(i);
      acc.input_tokens += u.input_tokens;
      acc.cache_creation_input_tokens += u.cache_creation_input_tokens;
      acc.cache_read_input_tokens += u.cache_read_input_tokens;
      acc.output_tokens += u.output_tokens;
      return acc;
    },
    { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
  );
  const terminal: Record<string, string> = {
    success: "completed",
    error_max_turns: "max_turns",
    error_max_budget_usd: "budget_exhausted",
    error_during_execution: "model_error",
  };
  lines.push({
    type: "result",
    subtype,
    is_error: spec.isError ?? subtype !== "success",
    duration_ms: 2000 + turns * 1500,
    duration_api_ms: 1800 + turns * 1400,
    num_turns: turns,
    ...(subtype === "success" ? { result: spec.text } : {}),
    stop_reason: subtype === "success" ? "end_turn" : "tool_use",
    session_id,
    total_cost_usd: spec.costUsd,
    usage: { ...totals, service_tier: "standard" },
    modelUsage: {
      [`${model}[1m]`]: {
        inputTokens: totals.input_tokens,
        outputTokens: totals.output_tokens,
        cacheReadInputTokens: totals.cache_read_input_tokens,
        cacheCreationInputTokens: totals.cache_creation_input_tokens,
        webSearchRequests: 0,
        costUSD: spec.costUsd,
        contextWindow: 1000000,
        maxOutputTokens: 64000,
      },
    },
    permission_denials: [],
    terminal_reason: terminal[subtype],
    ...(spec.errors ? { errors: spec.errors } : {}),
    uuid: `${session_id.slice(0, 8)}-0000-4000-8000-000000000000`,
  });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}
