// The scripted model behaviours every fake model server (test/contract/servers/)
// plays. A run picks its scenario through the first path segment of the base
// URL it is given (http://127.0.0.1:PORT/<scenario>/...), so one server serves
// every test of a file and counts the requests each scenario received.
export const SCENARIOS = [
  "plain", // one short answer
  "json", // the answer is a JSON object
  "tools-forever", // every response calls a tool, with different arguments each time
  "tools-same", // every response calls the same tool with the same arguments
  "tools-then-answer", // two responses call a tool, the third answers
  "blocks", // one response with several content blocks / output items
  "rate-limited", // HTTP 429
  "server-error", // HTTP 500
  "unauthorized", // HTTP 401
  "huge-usage", // a plain answer reporting a billion tokens
  "disconnect", // the stream starts, then the connection is dropped
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const PLAIN_ANSWER = "The fake model answers: all is well.";
export const JSON_ANSWER = { verdict: "clean", findings: 0 };
export const BLOCK_TEXTS = ["First block.", "Second block.", "Third block."];
export const HUGE_TOKENS = 1_000_000_000;

export interface FakeServer {
  /** The base URL for one scenario (no trailing slash). */
  base(scenario: Scenario): string;
  /** Model requests (generation calls) the scenario has received so far. */
  requests(scenario: Scenario): number;
  stop(): Promise<void>;
}

/** Splits /<scenario>/rest into its parts; null for an unknown scenario. */
export function routeOf(pathname: string): { scenario: Scenario; rest: string } | null {
  const [, first, ...rest] = pathname.split("/");
  if (!first || !(SCENARIOS as readonly string[]).includes(first)) return null;
  return { scenario: first as Scenario, rest: `/${rest.join("/")}` };
}

export function counter() {
  const counts = new Map<Scenario, number>();
  return {
    bump: (s: Scenario) => {
      const n = (counts.get(s) ?? 0) + 1;
      counts.set(s, n);
      return n;
    },
    get: (s: Scenario) => counts.get(s) ?? 0,
  };
}

/** A loopback server for the codex and gemini fakes: routes are /<scenario>/rest; `answer`
 *  gets the route, the whole request body (read before answering) and the request counter. */
export function serveScenarios(
  answer: (route: { scenario: Scenario; rest: string }, body: string, counts: ReturnType<typeof counter>) => Response,
  baseSuffix: string,
): FakeServer {
  const counts = counter();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const route = routeOf(new URL(req.url).pathname);
      const body = await req.text();
      if (!route || req.method !== "POST") return new Response("not found", { status: 404 });
      return answer(route, body, counts);
    },
  });
  return {
    base: (s) => `http://127.0.0.1:${server.port}/${s}${baseSuffix}`,
    requests: (s) => counts.get(s),
    stop: () => server.stop(true),
  };
}

/** A server-sent-events body that sends `chunks`, then either ends or drops the connection. */
export function sseBody(chunks: string[], drop = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      if (drop)
        controller.error(new Error("fake model server, disconnect scenario: connection dropped on purpose (Bun prints this; expected)"));
      else controller.close();
    },
  });
}

export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
