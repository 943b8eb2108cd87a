// A fake OpenAI Responses API (POST /<scenario>/v1/responses, streamed as
// server-sent events) for the real Codex CLI: codex is pointed at it by a
// custom provider in $HOME/.codex/config.toml (codexHome in
// ../lib/codex-gemini.ts). Only what codex 0.171.0 reads is sent:
// response.created, response.output_item.done, response.completed.
import {
  BLOCK_TEXTS,
  HUGE_TOKENS,
  JSON_ANSWER,
  PLAIN_ANSWER,
  serveScenarios,
  SSE_HEADERS,
  sseBody,
  type FakeServer,
  type Scenario,
} from "./scenarios.ts";

type Item = Record<string, unknown>;

const event = (data: { type: string } & Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

const message = (n: number, texts: string[]): Item => ({
  type: "message",
  role: "assistant",
  id: `msg_${n}`,
  content: texts.map((text) => ({ type: "output_text", text, annotations: [] })),
});

const toolCall = (n: number, cmd: string): Item => ({
  type: "function_call",
  id: `fc_${n}`,
  call_id: `call_${n}`,
  name: "exec_command",
  arguments: JSON.stringify({ cmd }),
});

function usage(input: number, output: number) {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

function stream(n: number, items: Item[], u = usage(100, 20), drop = false): Response {
  const id = `resp_${n}`;
  const chunks = [event({ type: "response.created", response: { id } })];
  for (const item of items) chunks.push(event({ type: "response.output_item.done", item }));
  if (!drop) chunks.push(event({ type: "response.completed", response: { id, usage: u } }));
  return new Response(sseBody(chunks, drop), { headers: SSE_HEADERS });
}

function httpError(status: number, type: string, text: string): Response {
  return Response.json({ error: { message: text, type, code: type } }, { status, headers: status === 429 ? { "retry-after": "0" } : {} });
}

/** `toolResults`: tool outputs already in the conversation (tools-then-answer counts them, so each run starts afresh). */
export function respond(scenario: Scenario, n: number, toolResults = 0): Response {
  switch (scenario) {
    case "plain":
      return stream(n, [message(n, [PLAIN_ANSWER])]);
    case "json":
      return stream(n, [message(n, [JSON.stringify(JSON_ANSWER)])]);
    case "tools-forever":
      return stream(n, [toolCall(n, `echo step ${n}`)]);
    case "tools-same":
      return stream(n, [toolCall(n, "echo again")]);
    case "tools-then-answer":
      return toolResults < 2 ? stream(n, [toolCall(n, `echo step ${toolResults + 1}`)]) : stream(n, [message(n, [PLAIN_ANSWER])]);
    case "blocks":
      return stream(n, [message(n, BLOCK_TEXTS.slice(0, 2)), message(n + 1000, BLOCK_TEXTS.slice(2))]);
    case "rate-limited":
      return httpError(429, "rate_limit_exceeded", "Rate limit reached (fake server)");
    case "server-error":
      return httpError(500, "server_error", "The fake server had an error");
    case "unauthorized":
      return httpError(401, "invalid_api_key", "Incorrect API key provided (fake server)");
    case "huge-usage":
      return stream(n, [message(n, [PLAIN_ANSWER])], usage(HUGE_TOKENS, HUGE_TOKENS));
    case "disconnect":
      return stream(n, [], usage(0, 0), true);
  }
}

export function startOpenAiResponses(): FakeServer {
  return serveScenarios((route, body, counts) => {
    if (route.rest !== "/v1/responses") return new Response("not found", { status: 404 });
    return respond(route.scenario, counts.bump(route.scenario), body.split('"type":"function_call_output"').length - 1);
  }, "/v1");
}
