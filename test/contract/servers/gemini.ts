// A fake Gemini API for the real Gemini CLI (GOOGLE_GEMINI_BASE_URL points at
// /<scenario>): POST .../models/M:streamGenerateContent?alt=sse streams the
// scripted answer; the CLI's side calls (its model router and other
// classifiers use :generateContent) get a small JSON answer that satisfies
// them and are not counted as model requests of the sitting.
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

type Part = Record<string, unknown>;

const usage = (prompt: number, out: number) => ({ promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out });
const chunk = (parts: Part[], finish?: string, u?: object) =>
  `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }], ...(u ? { usageMetadata: u } : {}) })}\r\n\r\n`;

function stream(chunks: string[], drop = false): Response {
  return new Response(sseBody(chunks, drop), { headers: SSE_HEADERS });
}

const answer = (parts: Part[], u = usage(100, 20)) => stream([chunk(parts, "STOP", u)]);
const call = (args: Record<string, unknown>) => answer([{ functionCall: { name: "list_directory", args } }]);

function httpError(status: number, state: string, text: string): Response {
  return Response.json({ error: { code: status, message: text, status: state } }, { status });
}

/** `toolResults`: function responses already in the conversation (tools-then-answer counts them). */
export function respond(scenario: Scenario, n: number, toolResults = 0): Response {
  switch (scenario) {
    case "plain":
      return answer([{ text: PLAIN_ANSWER }]);
    case "json":
      return answer([{ text: JSON.stringify(JSON_ANSWER) }]);
    case "tools-forever":
      return call({ dir_path: n % 2 === 0 ? "." : "..", ignore: [`never-${n}`] });
    case "tools-same":
      return call({ dir_path: "." });
    case "tools-then-answer":
      return toolResults < 2 ? call({ dir_path: ".", ignore: [`step-${toolResults}`] }) : answer([{ text: PLAIN_ANSWER }]);
    case "blocks":
      return stream([
        chunk([{ text: BLOCK_TEXTS[0] }]),
        chunk([{ text: BLOCK_TEXTS[1] }, { text: BLOCK_TEXTS[2] }], "STOP", usage(100, 30)),
      ]);
    case "rate-limited":
      return httpError(429, "RESOURCE_EXHAUSTED", "Quota exceeded (fake server)");
    case "server-error":
      return httpError(500, "INTERNAL", "The fake server had an error");
    case "unauthorized":
      return httpError(401, "UNAUTHENTICATED", "API key not valid (fake server)");
    case "huge-usage":
      return answer([{ text: PLAIN_ANSWER }], usage(HUGE_TOKENS, HUGE_TOKENS));
    case "disconnect":
      return stream([chunk([{ text: "Half an ans" }])], true);
  }
}

/** The CLI's own classifier calls (model routing and the like): one JSON object that satisfies them. */
function sideAnswer(): Response {
  const text = JSON.stringify({
    complexity_reasoning: "fake server",
    complexity_score: 10,
    reasoning: "fake server",
    next_speaker: "user",
    model_choice: "flash",
  });
  return Response.json({
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: usage(1, 1),
  });
}

export function startGemini(): FakeServer {
  return serveScenarios((route, body, counts) => {
    if (route.rest.endsWith(":streamGenerateContent"))
      return respond(route.scenario, counts.bump(route.scenario), body.split('"functionResponse"').length - 1);
    if (route.rest.endsWith(":generateContent")) return sideAnswer();
    if (route.rest.endsWith(":countTokens")) return Response.json({ totalTokens: 10 });
    return new Response("not found", { status: 404 });
  }, "");
}

/** A Gemini API for one test's own model: `reply` answers each generation request (its body and
 *  number, 0-based); the CLI's side calls get their small answers as above. */
export function startGeminiScript(reply: (body: string, n: number) => Response): {
  base: string;
  requests(): number;
  stop(): Promise<void>;
} {
  let n = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = await req.text();
      if (path.endsWith(":streamGenerateContent")) return reply(body, n++);
      if (path.endsWith(":generateContent")) return sideAnswer();
      if (path.endsWith(":countTokens")) return Response.json({ totalTokens: 10 });
      return new Response("not found", { status: 404 });
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, requests: () => n, stop: () => server.stop(true) };
}

/** A model answer: these parts, then the end of the turn. */
export const geminiAnswer = (parts: Part[]) => answer(parts);
/** A model response that calls one tool. */
export const geminiCall = (name: string, args: Record<string, unknown>) => answer([{ functionCall: { name, args } }]);
export const geminiError = httpError;
