// codex's usage limit through dist/vouch (issue 28 item 2, ADR 0022). codex names
// its reset to the minute ("… or try again at 4:32 PM.", its local time), read
// from the Responses API's 429 `usage_limit_reached` with `resets_at`. On main
// vouch read the minute's start, a moment up to 59 s before the real reset:
// a paused run named a reset too early, and `--wait-limits` waited 0 ms for a
// reset already past and restarted codex into the same limit again and again.
import { afterAll, expect, test } from "vitest";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { cleanupScratch, codexHome, describeCli, oneNodeGraph, runContract, type Outcome } from "./lib/index.ts";
import { respond } from "./servers/openai-responses.ts";

afterAll(() => cleanupScratch());

const of = <T extends VouchEvent["type"]>(events: VouchEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

/** A Responses API that answers 429 usage_limit_reached with `resetsAt` (epoch s) until then, and a plain answer after. */
function limitedUntil(resetsAt: number) {
  let requests = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      await req.text();
      if (!new URL(req.url).pathname.endsWith("/v1/responses")) return new Response("not found", { status: 404 });
      requests++;
      if (Date.now() >= resetsAt * 1000) return respond("plain", requests);
      return Response.json(
        { error: { type: "usage_limit_reached", message: "usage limit (fake server)", plan_type: "plus", resets_at: resetsAt } },
        { status: 429 },
      );
    },
  });
  return { base: `http://127.0.0.1:${server.port}/v1`, requests: () => requests, stop: () => server.stop(true) };
}

async function run(resetsAt: number, args: string[]): Promise<Outcome & { requests: number }> {
  const server = limitedUntil(resetsAt);
  try {
    const { graph } = oneNodeGraph({ harness: "codex" });
    const r = await runContract(graph, codexHome(server.base), { FAKE_OPENAI_KEY: "fake-key" }, { args });
    return { ...r, requests: server.requests() };
  } finally {
    await server.stop();
  }
}

/** A reset `aheadS` seconds from now that does not fall on a whole minute (so the minute's start is before it). */
function resetIn(aheadS: number): number {
  const at = Math.floor(Date.now() / 1000) + aheadS;
  return at % 60 === 0 ? at + 1 : at;
}

describeCli("codex", "codex usage limits through dist/vouch", () => {
  test("a paused run names the end of the minute codex gave, never a moment before the real reset", { timeout: 120_000 }, async () => {
    const reset = resetIn(30);
    const r = await run(reset, []);
    expect(r.code, r.stderr).toBe(4);
    const limited = of(r.events, "node.limited");
    expect(limited).toHaveLength(1);
    expect(limited[0]!.error).toMatch(/try again at \d{1,2}:\d{2} [AP]M/);
    const named = Date.parse(limited[0]!.resets_at ?? "");
    // The end of the reset's minute: not before it (on main: the minute's start, up to 59 s early).
    expect(named).toBeGreaterThanOrEqual(reset * 1000);
    expect(named).toBe(Math.floor(reset / 60) * 60_000 + 60_000);
    expect(r.requests).toBe(1);
  });

  test("--wait-limits against a reset 10 s ahead: one wait past it, then the answer (on main: codex restarted in a loop)", {
    timeout: 150_000,
  }, async () => {
    const reset = resetIn(10);
    const r = await run(reset, ["--wait-limits", "--max-wait", "3m", "--wall", "2m"]);
    expect(r.code, r.stderr).toBe(0);
    const waits = of(r.events, "run.waiting");
    expect(waits).toHaveLength(1);
    expect(Date.parse(waits[0]!.until)).toBeGreaterThanOrEqual(reset * 1000);
    expect(r.node).toMatchObject({ status: "passed", stop_reason: "complete" });
    // One limited sitting and the one that passed.
    expect(r.requests).toBe(2);
  });

  test("a reset already past is unknown: vouch's backoff, not a wait of 0 ms (on main: a hot loop until the wall cap)", {
    timeout: 120_000,
  }, async () => {
    const reset = Math.floor(Date.now() / 1000) - 150;
    // The server keeps refusing (its reset is past, but the limit holds): answer 429 for ever.
    let requests = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      async fetch(req) {
        await req.text();
        requests++;
        return Response.json(
          { error: { type: "usage_limit_reached", message: "fake", plan_type: "plus", resets_at: reset } },
          { status: 429 },
        );
      },
    });
    try {
      const { graph } = oneNodeGraph({ harness: "codex" });
      const r = await runContract(
        graph,
        codexHome(`http://127.0.0.1:${server.port}/v1`),
        { FAKE_OPENAI_KEY: "fake-key" },
        {
          args: ["--wait-limits", "--max-wait", "30s", "--wall", "40s"],
        },
      );
      // The backoff (1 min) is longer than --max-wait: paused at once, after one sitting.
      expect(r.code, r.stderr).toBe(4);
      expect(of(r.events, "run.waiting")).toEqual([]);
      expect(of(r.events, "node.limited").map((e) => e.resets_at)).toEqual([null]);
      expect(of(r.events, "run.paused")[0]).toMatchObject({ reason: "rate_limited", harness: "codex", resets_at: null });
      expect(requests).toBe(1);
    } finally {
      await server.stop(true);
    }
  });
});
