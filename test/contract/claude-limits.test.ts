// Usage and rate limits through the real claude and dist/vouch (issue 16, ADR
// 0022). A claude logged in to a subscription (a fake CLAUDE_CODE_OAUTH_TOKEN;
// the fake server accepts anything) gets a 429 with the unified rate-limit
// headers, prints "You've hit your 5-hour limit · resets …" with a
// rate_limit_event naming the reset, and gives up at once: the run ends paused
// (exit 4) with resets_at. After the server recovers, `vouch resume` passes
// without running again what passed. An API-key 429 (no reset in any line)
// pauses too, with resets_at null.
import { expect, it } from "vitest";
import { describeCli } from "./lib/skip.ts";
import { FAST_RETRIES, oneAgentGraph, runClaudeScenario } from "./lib/claude.ts";
import { throwawayHome } from "./lib/home.ts";
import { contractPath, runThroughVouch } from "./lib/run.ts";
import { BINARY } from "../graph/binary.ts";
import { parseNdjson } from "../e2e/helpers.ts";
import { always, answer, apiError, startFakeAnthropic } from "./servers/anthropic.ts";
import { MODEL } from "./claude-pricing.ts";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";

const CONTRACT_TIMEOUT = 120_000;
const of = <T extends VouchEvent["type"]>(events: VouchEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

const graph = `version: 1
name: contract
nodes:
  prep: { kind: script, run: "echo prepared" }
  ask: { kind: agent, prompt: "Say hello.", model: ${MODEL}, needs: [prep] }
`;

describeCli("claude", "claude usage limits", () => {
  it("a subscription's 5-hour limit (429 with reset headers): paused, exit 4, resets_at; resume after recovery passes without re-running prep", {
    timeout: CONTRACT_TIMEOUT,
  }, async () => {
    const reset = Math.floor(Date.now() / 1000) + 3 * 3600;
    let limited = true;
    const headers = {
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-reset": String(reset),
      "anthropic-ratelimit-unified-representative-claim": "five_hour",
      "retry-after": String(3 * 3600),
    };
    const server = startFakeAnthropic(() => (limited ? apiError(429, headers) : answer("Hello after the reset.")));
    const home = throwawayHome("claude-limits");
    const env = {
      ANTHROPIC_BASE_URL: server.url,
      // A subscription login: claude reads its limit from the unified headers (an API key would not).
      CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-contract-test-fake-token-000000",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: FAST_RETRIES,
    };
    try {
      const r = await runThroughVouch({ cli: "claude", home, graph, env });
      expect(r.code, r.stderr).toBe(4);
      const iso = new Date(reset * 1000).toISOString();
      expect(of(r.events, "node.limited")).toEqual([expect.objectContaining({ node: "ask", harness: "claude", resets_at: iso })]);
      expect(of(r.events, "node.limited")[0]!.error).toContain("You've hit your 5-hour limit");
      expect(of(r.events, "run.paused")[0]).toMatchObject({ reason: "rate_limited", harness: "claude", resets_at: iso });
      expect(r.run()).toMatchObject({ status: "paused", exit_code: 4, reason: "rate_limited" });
      // claude gave up at once: no retries inside the limit window.
      expect(server.requests).toHaveLength(1);

      limited = false;
      // resume passes the names the run recorded (--pass-env of the first session), with today's values.
      const p = Bun.spawn([BINARY, "resume", "last", "--json"], {
        cwd: home.work,
        env: { PATH: contractPath(), HOME: home.home, TZ: "UTC", VOUCH_HOME: home.vouchHome, ...env },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      expect(code, stderr).toBe(0);
      const later = parseNdjson(stdout);
      expect(of(later, "node.started").map((e) => e.node)).toEqual(["ask"]);
      expect(of(later, "node.finished").find((e) => e.node === "ask")).toMatchObject({ status: "passed", stop_reason: "complete" });
      expect(of(later, "run.finished")[0]).toMatchObject({ status: "passed", counts: { passed: 2 } });
    } finally {
      await server.stop();
      home.cleanup();
    }
  });

  it("an API-key 429 after claude's retries: paused (exit 4), resets_at null, no retry spent by vouch", {
    timeout: CONTRACT_TIMEOUT,
  }, async () => {
    const retries = Number(FAST_RETRIES);
    const r = await runClaudeScenario({
      script: always(
        apiError(429, { "retry-after": "0", "anthropic-ratelimit-tokens-reset": new Date(Date.now() + 60_000).toISOString() }),
      ),
      graph: oneAgentGraph({ fields: [`model: ${MODEL}`, "retry: { max: 2, on: [harness_error] }"] }),
    });
    expect(r.code, r.stderr).toBe(4);
    const limited = of(r.events, "node.limited");
    expect(limited).toEqual([expect.objectContaining({ node: "ask", attempt: 1, harness: "claude", resets_at: null })]);
    expect(limited[0]!.error).toContain("Request rejected (429)");
    expect(of(r.events, "node.retrying")).toEqual([]);
    // One sitting: claude's own retries, none of vouch's.
    expect(r.server.requests).toHaveLength(retries + 1);
    expect(r.run()).toMatchObject({ status: "paused", exit_code: 4, reason: "rate_limited" });
  });
});
