// The real Codex CLI (clis/node_modules, pinned in clis/package.json) run by
// dist/vouch against the fake Responses API, one scenario per test, each in a
// throwaway HOME and a working folder outside any git repository.
import { afterAll, beforeAll, expect, test } from "vitest";
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { cleanupScratch, cliInstalled, codexHome, describeCli, oneNodeGraph, runContract, scratch, type Outcome } from "./lib/index.ts";
import { startOpenAiResponses } from "./servers/openai-responses.ts";
import { BLOCK_TEXTS, JSON_ANSWER, PLAIN_ANSWER, type FakeServer, type Scenario } from "./servers/scenarios.ts";

const skip = !cliInstalled("codex");
let server: FakeServer;
beforeAll(() => {
  if (!skip) server = startOpenAiResponses();
});
afterAll(async () => {
  await server?.stop();
  cleanupScratch();
});

async function run(scenario: Scenario, o: { caps?: string; format?: "json"; cwd?: string; tempHome?: boolean } = {}): Promise<Outcome> {
  const { tempHome, ...spec } = o;
  const { graph } = oneNodeGraph({ harness: "codex", ...spec });
  const home = codexHome(server.base(scenario));
  return runContract(graph, home, { FAKE_OPENAI_KEY: "fake-key" }, tempHome ? { tmpdir: dirname(home) } : {});
}

/** A turns: 3 stop: past the cap and soon after it (measured alone: 4 or 5 turns; with both cores
 *  busy with other work, 6 — codex's turns are read from its session file as it grows; on main: 48),
 *  the overrun told once at the first count past the cap, at most one request uncounted. */
function heldToTheCap(r: Outcome, requests: number): void {
  const turns = r.node?.turns ?? 0;
  expect(turns).toBeGreaterThanOrEqual(4);
  expect(turns).toBeLessThanOrEqual(8);
  const told = r.overruns.map((o) => [o.cap, o.limit, o.actual] as const);
  expect(told.map(([cap, limit]) => [cap, limit])).toEqual([["turns", 3]]);
  expect(told[0]![2]).toBeGreaterThanOrEqual(4);
  expect(told[0]![2]).toBeLessThanOrEqual(turns);
  expect(requests - turns).toBeGreaterThanOrEqual(0);
  expect(requests - turns).toBeLessThanOrEqual(1);
}

describeCli("codex", "codex 0.171.0 through dist/vouch", () => {
  test("plain answer: passed exit-only, one turn, cost unknown, exit 0", async () => {
    const r = await run("plain");
    expect(r.node).toMatchObject({ status: "passed", qualifier: "exit-only", stop_reason: "complete", cost_usd: null, turns: 1 });
    expect(r.node?.result_tail).toBe(PLAIN_ANSWER);
    expect(r.node?.tokens).toEqual({ input: 100, output: 20, cache_read: 0, cache_creation: 0 });
    expect(r.overruns).toEqual([]);
    expect(r.code).toBe(0);
  });

  test("JSON answer: the output is the parsed object", async () => {
    const r = await run("json", { format: "json" });
    expect(r.node).toMatchObject({ status: "passed", stop_reason: "complete", turns: 1, output: JSON_ANSWER });
    expect(r.code).toBe(0);
  });

  test("several output items: the result is the last message, one turn", async () => {
    const r = await run("blocks");
    expect(r.node).toMatchObject({ status: "passed", stop_reason: "complete", turns: 1 });
    expect(r.node?.result_tail).toBe(BLOCK_TEXTS[2]);
  });

  // Issue 13 item 2: on main vouch counted turn.completed (once per exec) and never stopped codex.
  test("a model calling tools forever is stopped by the turns cap at the response past it", async () => {
    const r = await run("tools-forever", { caps: "{ turns: 3, wall: 60s }" });
    expect(r.node).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "turns", cost_usd: null });
    // Measured alone: 4 turns, 4 requests. Whatever the machine's load (the suite's, CI's): stopped
    // at the response past the cap or the one after it, every response counted but the one in
    // flight at the kill (on main: 48 requests against turns: 3).
    heldToTheCap(r, server.requests("tools-forever"));
    expect(r.code).toBe(3);
  });

  // Review of issue 13: docs/real-clis.md claimed this row with no test behind it.
  test("the same tool call forever is stopped by the turns cap too (codex has no loop detection of its own)", async () => {
    const r = await run("tools-same", { caps: "{ turns: 3, wall: 60s }" });
    expect(r.node).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "turns" });
    heldToTheCap(r, server.requests("tools-same"));
    expect(r.code).toBe(3);
  });

  // Issue 28 item 3: with CODEX_HOME under TMPDIR codex will not create its sandbox helper, every
  // command fails before it starts and shows no item; vouch counted 4 turns from items while the
  // model was asked dozens of times (on main: no stop until the wall cap, "4/3"). The session
  // file records every response: the cap is kept and the overrun is the real count.
  test("a HOME under the temp folder (commands fail, no items): the turns cap stops it and the overrun is the real count", async () => {
    const before = server.requests("tools-forever");
    const r = await run("tools-forever", { caps: "{ turns: 3, wall: 60s }", tempHome: true });
    const requests = server.requests("tools-forever") - before;
    expect(r.node).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "turns", cost_usd: null });
    const turns = r.node?.turns ?? 0;
    // The overrun is told once, live, at the first count past the cap (docs/events.md): a response
    // that lands while codex is being stopped is counted in the node's turns, not in that event.
    expect(r.overruns.map((o) => [o.cap, o.limit])).toEqual([["turns", 3]]);
    expect(r.overruns[0]!.actual).toBeGreaterThanOrEqual(4);
    expect(r.overruns[0]!.actual).toBeLessThanOrEqual(turns);
    // Every response the model gave is counted; the kill may cut one more request in flight.
    expect(turns).toBeGreaterThan(3);
    expect(requests - turns).toBeGreaterThanOrEqual(0);
    expect(requests - turns).toBeLessThanOrEqual(1);
    // Stopped soon after the cap, not at the wall (on main: dozens of requests).
    expect(turns).toBeLessThanOrEqual(15);
    expect(r.code).toBe(3);
  }, 90_000);

  // Issue 13 item 3: on main codex exited 1 ("Not inside a trusted directory ...") in any folder outside git.
  test("outside a git repository codex runs (vouch passes --skip-git-repo-check)", async () => {
    const r = await run("plain", { cwd: scratch("not-a-repo") });
    expect(r.node?.error ?? "").not.toContain("trusted directory");
    expect(r.node?.status).toBe("passed");
  });

  test("inside a git repository codex runs too", async () => {
    const repo = scratch("repo");
    execFileSync("git", ["init", "-q", repo]);
    const r = await run("plain", { cwd: repo });
    expect(r.node?.status).toBe("passed");
  });

  // Issue 16: a 429 is a usage limit, not an error: the node is held and the run pauses.
  test("rate-limited: held by the limit (node.limited, no reset named), the run paused, exit 4", async () => {
    const r = await run("rate-limited");
    expect(r.node).toBeUndefined();
    const limited = r.events.filter((e) => e.type === "node.limited");
    expect(limited).toEqual([
      expect.objectContaining({ node: "ask", harness: "codex", resets_at: null, error: expect.stringMatching(/429/) }),
    ]);
    expect(r.events.at(-1)).toMatchObject({ type: "run.finished", status: "paused", reason: "rate_limited" });
    expect(r.code).toBe(4);
  });

  test.each([
    ["server-error", /high demand|500/],
    ["disconnect", /stream disconnected/],
  ] as const)("%s: error harness_error/crashed with codex's message, zero turns, exit 3", async (scenario, message) => {
    const r = await run(scenario);
    expect(r.node).toMatchObject({ status: "error", cause: "harness_error", stop_reason: "crashed", turns: 0, cost_usd: null });
    expect(r.node?.error).toMatch(message);
    expect(r.code).toBe(3);
  });

  test("401: unavailable (the key is wrong), exit 3", async () => {
    const r = await run("unauthorized");
    expect(r.node).toMatchObject({ status: "error", cause: "unavailable", stop_reason: "unavailable" });
    expect(r.node?.error).toMatch(/401/);
    expect(r.code).toBe(3);
  });

  test("huge usage: the billion tokens are reported as they came, no cost, passed", async () => {
    const r = await run("huge-usage");
    expect(r.node).toMatchObject({ status: "passed", stop_reason: "complete", cost_usd: null, turns: 1 });
    expect(r.node?.tokens).toEqual({ input: 1e9, output: 1e9, cache_read: 0, cache_creation: 0 });
  });

  test("a budget cap is refused before codex starts (exit 2), no request made", async () => {
    const before = server.requests("plain");
    const r = await run("plain", { caps: "{ budget_usd: 1 }" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot keep caps\.budget_usd/);
    expect(server.requests("plain")).toBe(before);
  });
});
