// A fake Anthropic Messages API for the contract tests: the real `claude`
// (pointed here by ANTHROPIC_BASE_URL) talks to it instead of the network.
// Every test scripts its replies — a plain answer, tool calls forever, API
// errors, a huge usage, a stream cut in the middle — and reads back what
// claude sent. Claude only ever calls `POST /v1/messages` (with `?beta=true`),
// always streaming, so every success is an SSE stream in the API's own order:
// message_start, content_block_start/delta/stop per block, message_delta
// (stop reason + usage), message_stop.

export type Block = { type: "text"; text: string } | { type: "tool_use"; name: string; input: Record<string, unknown> };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export type Reply =
  | { kind: "message"; blocks: Block[]; usage?: Usage; stopReason?: "end_turn" | "tool_use" | "max_tokens" }
  | { kind: "error"; status: number; errorType: string; message: string; headers?: Record<string, string> }
  /** Sends message_start, the first block's start and its first text delta, then drops the connection. */
  | { kind: "disconnect" };

export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
}

/** Decides the reply to the n-th request (0-based) from its body. */
export type Script = (n: number, body: Record<string, unknown>) => Reply;

export interface FakeAnthropic {
  url: string;
  requests: RecordedRequest[];
  /** Requests that carried the agent's own conversation (not a side call such as a title). */
  stop(): Promise<void>;
}

const SMALL_USAGE: Usage = { input_tokens: 12, output_tokens: 5 };

export function startFakeAnthropic(script: Script): FakeAnthropic {
  const requests: RecordedRequest[] = [];
  let ids = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 30,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/v1/messages") {
        return Response.json(
          { type: "error", error: { type: "not_found_error", message: `no ${req.method} ${url.pathname} here` } },
          { status: 404 },
        );
      }
      let body: Record<string, unknown>;
      try {
        body = (await req.json()) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const n = requests.length;
      requests.push({ path: url.pathname + url.search, body });
      const reply = script(n, body);
      ids += 1;
      return respond(reply, `msg_fake_${String(ids).padStart(4, "0")}`, String(body.model ?? "claude-fake"));
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    stop: () => server.stop(true),
  };
}

function respond(reply: Reply, id: string, model: string): Response {
  if (reply.kind === "error") {
    const payload = { type: "error", error: { type: reply.errorType, message: reply.message } };
    return Response.json(payload, { status: reply.status, headers: { "request-id": `req_${id}`, ...reply.headers } });
  }
  const events = reply.kind === "message" ? messageEvents(reply, id, model) : disconnectEvents(id, model);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const enc = new TextEncoder();
      for (const [name, data] of events) controller.enqueue(enc.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`));
      // A disconnect ends the body with an error: the client sees the connection drop mid-message.
      if (reply.kind === "disconnect") controller.error(new Error("fake server: connection dropped"));
      else controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": `req_${id}` } });
}

type SseEvent = [string, Record<string, unknown>];

function messageStart(id: string, model: string, usage: Usage): SseEvent {
  const message = {
    id,
    type: "message",
    role: "assistant",
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  };
  return ["message_start", { type: "message_start", message }];
}

function messageEvents(reply: Extract<Reply, { kind: "message" }>, id: string, model: string): SseEvent[] {
  const usage = reply.usage ?? SMALL_USAGE;
  const out: SseEvent[] = [messageStart(id, model, usage)];
  reply.blocks.forEach((block, index) => {
    if (block.type === "text") {
      out.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
      out.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } }]);
    } else {
      const toolId = `toolu_${id}_${index}`;
      out.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { type: "tool_use", id: toolId, name: block.name, input: {} } },
      ]);
      out.push([
        "content_block_delta",
        { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } },
      ]);
    }
    out.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  const stop = reply.stopReason ?? (reply.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  out.push(["message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage }]);
  out.push(["message_stop", { type: "message_stop" }]);
  return out;
}

function disconnectEvents(id: string, model: string): SseEvent[] {
  return [
    messageStart(id, model, SMALL_USAGE),
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "The answer is" } }],
  ];
}

// --- scripts the scenarios share -------------------------------------------

export const text = (t: string): Block => ({ type: "text", text: t });
export const toolUse = (name: string, input: Record<string, unknown>): Block => ({ type: "tool_use", name, input });

/** The same reply to every request. */
export const always =
  (reply: Reply): Script =>
  () =>
    reply;

/** Replies in order; the last one repeats. */
export const sequence =
  (...replies: Reply[]): Script =>
  (n) =>
    replies[Math.min(n, replies.length - 1)]!;

export const answer = (t: string, usage?: Usage): Reply => ({ kind: "message", blocks: [text(t)], ...(usage ? { usage } : {}) });

/** A model that never stops calling a harmless tool (Glob: it reads nothing and changes nothing). */
export const toolsForever: Script = (n) => ({
  kind: "message",
  blocks: [text(`Looking again (${n + 1}).`), toolUse("Glob", { pattern: "*.nothing" })],
});

export const apiError = (status: number, headers: Record<string, string> = {}): Reply => {
  const types: Record<number, [string, string]> = {
    401: ["authentication_error", "invalid x-api-key"],
    429: ["rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"],
    500: ["api_error", "Internal server error"],
    529: ["overloaded_error", "Overloaded"],
  };
  const [errorType, message] = types[status] ?? ["api_error", `status ${status}`];
  return { kind: "error", status, errorType, message, headers };
};
