// What one ACP sitting has seen (ADR 0051): the agent's answer, its turns (turns.ts),
// tool calls and the files they touched, tokens and cost when the agent reports
// them, the permission answers, and how the conversation ended. Fed by the
// conversation (conversation.ts) one message at a time; every value comes from
// the agent, so each is type-checked, bounded, and kept only in the shape vouch
// reads. Pure.
import type { SittingProgress } from "../../../engine/ports.ts";
import type { Tokens } from "../../../engine/events.ts";
import { isObject, type JsonObject } from "../../../engine/json-object.ts";
import { lastLine } from "../common/json-documents.ts";
import { acpTurnCounter } from "./turns.ts";

/** The answer kept: the last response's text, its end when longer. */
const MAX_TEXT = 1024 * 1024;
/** Tool calls remembered for the record (the newest kept). */
const MAX_TOOL_CALLS = 500;
const MAX_PATHS = 50;

export interface ToolCallRecord {
  id: string;
  title: string;
  kind: string;
  status: string;
  /** Files it read or changed (its locations and diffs), as the agent named them. */
  paths: string[];
}

/** How the conversation ended, as far as the protocol tells. */
export type Ending =
  | { kind: "stop"; stopReason: string }
  | { kind: "error"; during: string; code: number | null; message: string }
  | { kind: "none" };

export class AcpSessionState {
  readonly counter = acpTurnCounter();
  text = "";
  private responseOfText = 0;
  activity: string | undefined;
  readonly toolCalls = new Map<string, ToolCallRecord>();
  tokens: Tokens | undefined;
  costUsd: number | undefined;
  denials = 0;
  sessionId: string | undefined;
  agentName: string | undefined;
  initialized = false;
  /** Updates of a session being loaded replay its history: not this sitting's. */
  replaying = false;
  ending: Ending = { kind: "none" };
  /** vouch asked the agent to stop (a cap, a cancel). */
  cancelRequested = false;

  /** @param countsTurns whether the agent's turn count is vouch's to trust (a tested agent, agents.ts):
   *  an untested agent's count may miss responses, so none is reported — never an invented number. */
  constructor(readonly countsTurns = true) {}

  /** One `session/update` notification's params. True when the progress changed. */
  update(params: unknown): boolean {
    if (this.replaying || !isObject(params) || !isObject(params.update)) return false;
    const u = params.update;
    const kind = typeof u.sessionUpdate === "string" ? u.sessionUpdate : "";
    const id = typeof u.toolCallId === "string" ? u.toolCallId : undefined;
    const status = typeof u.status === "string" ? u.status : undefined;
    const before = this.counter.turns;
    this.counter.update(kind, id, status);
    switch (kind) {
      case "agent_message_chunk":
        return this.chunk(u) || this.counter.turns !== before;
      case "tool_call":
      case "tool_call_update":
        if (id !== undefined) this.toolCall(id, u);
        return true;
      case "usage_update":
        return this.usage(u);
      default:
        return this.counter.turns !== before;
    }
  }

  private chunk(u: JsonObject): boolean {
    const content = u.content;
    if (!isObject(content) || content.type !== "text" || typeof content.text !== "string") return false;
    // A new response's text replaces the previous one's: the answer is the last response.
    if (this.responseOfText !== this.counter.turns) {
      this.responseOfText = this.counter.turns;
      this.text = "";
    }
    this.text = (this.text + content.text).slice(-MAX_TEXT);
    const line = lastLine(this.text, 120);
    if (!line) return false;
    this.activity = line;
    return true;
  }

  private toolCall(id: string, u: JsonObject): void {
    const prior = this.toolCalls.get(id);
    const record: ToolCallRecord = prior ?? { id: id.slice(0, 256), title: "", kind: "other", status: "pending", paths: [] };
    if (typeof u.title === "string" && u.title !== "") record.title = lastLine(u.title, 200) ?? record.title;
    if (typeof u.kind === "string") record.kind = u.kind.slice(0, 32);
    if (typeof u.status === "string") record.status = u.status.slice(0, 32);
    for (const p of pathsOf(u)) if (!record.paths.includes(p) && record.paths.length < MAX_PATHS) record.paths.push(p);
    if (!prior) {
      this.toolCalls.set(id, record);
      if (this.toolCalls.size > MAX_TOOL_CALLS) this.toolCalls.delete(this.toolCalls.keys().next().value!);
    }
    const where = record.paths[0] ? ` ${record.paths[0]}` : "";
    this.activity = `${record.kind} ${record.title || "tool"}${where} (${record.status})`;
  }

  private usage(u: JsonObject): boolean {
    const cost = u.cost;
    if (!isObject(cost) || cost.currency !== "USD" || typeof cost.amount !== "number") return false;
    if (!Number.isFinite(cost.amount) || cost.amount < 0) return false;
    this.costUsd = cost.amount;
    return true;
  }

  /** The prompt's response: its stop reason, and tokens when the agent says them. */
  stopped(response: unknown): void {
    const r = isObject(response) ? response : {};
    this.ending = { kind: "stop", stopReason: typeof r.stopReason === "string" ? r.stopReason.slice(0, 64) : "" };
    this.tokens = tokensOf(r) ?? this.tokens;
  }

  failed(during: string, e: unknown): void {
    if (this.ending.kind !== "none") return;
    const code = isObject(e) && typeof e.code === "number" ? e.code : null;
    const raw = isObject(e) ? e.data : undefined;
    // The agent's detail, whatever its shape: a string, { message }, or some object (bounded).
    const data =
      typeof raw === "string"
        ? `: ${raw}`
        : isObject(raw) && typeof raw.message === "string"
          ? `: ${raw.message}`
          : isObject(raw)
            ? `: ${JSON.stringify(raw).slice(0, 500)}`
            : "";
    const message = e instanceof Error ? e.message : isObject(e) && typeof e.message === "string" ? e.message : String(e);
    this.ending = { kind: "error", during, code, message: `${message}${data}`.slice(0, 2000) };
  }

  /** Files the tool calls changed (kinds edit, delete, move; or a diff), for the record. */
  editedPaths(): string[] {
    const out = new Set<string>();
    for (const t of this.toolCalls.values())
      if (t.kind === "edit" || t.kind === "delete" || t.kind === "move") t.paths.forEach((p) => out.add(p));
    return [...out];
  }

  progress(): SittingProgress {
    return {
      ...(this.countsTurns ? { turns: this.counter.turns } : {}),
      ...(this.costUsd !== undefined ? { costUsd: this.costUsd } : {}),
      ...(this.tokens !== undefined ? { tokens: this.tokens } : {}),
      ...(this.activity !== undefined ? { activity: this.activity } : {}),
    };
  }
}

/** The paths a tool call names: its locations, and the files of its diff contents. */
function pathsOf(u: JsonObject): string[] {
  const out: string[] = [];
  if (Array.isArray(u.locations))
    for (const l of u.locations.slice(0, MAX_PATHS)) if (isObject(l) && typeof l.path === "string") out.push(l.path.slice(0, 4096));
  if (Array.isArray(u.content))
    for (const c of u.content.slice(0, MAX_PATHS))
      if (isObject(c) && c.type === "diff" && typeof c.path === "string") out.push(c.path.slice(0, 4096));
  return out;
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/** Tokens of a prompt response: ACP's (unstable) `usage`, or gemini's `_meta.quota.token_count`. */
export function tokensOf(r: JsonObject): Tokens | undefined {
  if (isObject(r.usage)) {
    const u = r.usage;
    return {
      input: count(u.inputTokens),
      output: count(u.outputTokens),
      cache_read: count(u.cachedReadTokens),
      cache_creation: count(u.cachedWriteTokens),
    };
  }
  const quota = isObject(r._meta) && isObject(r._meta.quota) ? r._meta.quota : undefined;
  if (quota && isObject(quota.token_count)) {
    const t = quota.token_count;
    return { input: count(t.input_tokens), output: count(t.output_tokens), cache_read: 0, cache_creation: 0 };
  }
  return undefined;
}
