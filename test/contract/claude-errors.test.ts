// API errors through the real claude and dist/vouch: claude's own retries
// shown live and counted (issue 13 item 7), then an error that is never a
// verdict. CLAUDE_CODE_MAX_RETRIES=2 (lib/claude.ts) keeps each scenario to
// seconds; the default is ~10 retries over ~3 minutes.
import { expect, it } from "vitest";
import { describeCli } from "./lib/skip.ts";
import { FAST_RETRIES, oneAgentGraph, runClaudeScenario } from "./lib/claude.ts";
import { vouchIn } from "./lib/run.ts";
import { always, answer, apiError, sequence } from "./servers/anthropic.ts";
import { MODEL } from "./claude-pricing.ts";

const CONTRACT_TIMEOUT = 90_000;
const graph = oneAgentGraph({ fields: [`model: ${MODEL}`] });
const retries = Number(FAST_RETRIES);

describeCli("claude", "claude API errors", () => {
  // A 429 after claude's retries is a usage limit (issue 16): claude-limits.test.ts.
  for (const status of [500, 529]) {
    it(`${status} on every request: claude retries (shown live, counted), then error harness_error`, {
      timeout: CONTRACT_TIMEOUT,
    }, async () => {
      const r = await runClaudeScenario({ script: always(apiError(status, { "retry-after": "0" })), graph, keepHome: true });
      try {
        const f = r.finished("ask");
        expect([r.code, f.status, f.qualifier, f.stop_reason, f.cause]).toEqual([3, "error", null, "crashed", "harness_error"]);
        expect(f.error).toContain(`API Error`);
        expect(f.cost_usd).toBe(0);
        // No model response was made: claude's synthetic error message is not a turn.
        expect(f.turns).toBe(0);
        expect(r.server.requests).toHaveLength(retries + 1);
        const live = r.progress("ask").map((p) => p.activity);
        for (let i = 1; i <= retries; i++) expect(live).toContain(`API retry ${i}/${retries}, ${status}`);
        expect(r.progress("ask").at(-1)!.api_retries).toBe(retries);
        expect(f.api_retries).toBe(retries);
        // The ledger keeps the count: vouch show prints it.
        const show = await vouchIn(r.home, ["show", "last", "--json"]);
        expect(show.code).toBe(0);
        expect(JSON.stringify(JSON.parse(show.stdout))).toContain(`"api_retries":${retries}`);
        const text = await vouchIn(r.home, ["show", "last"]);
        expect(text.stdout).toMatch(new RegExp(`api retries\\s*${retries}|${retries} API retr`, "i"));
      } finally {
        r.home.cleanup();
      }
    });
  }

  it("a 429 that clears on the second try: passed, one retry counted", { timeout: CONTRACT_TIMEOUT }, async () => {
    const r = await runClaudeScenario({ script: sequence(apiError(429, { "retry-after": "0" }), answer("Hello after all.")), graph });
    const f = r.finished("ask");
    expect([r.code, f.status, f.stop_reason]).toEqual([0, "passed", "complete"]);
    expect(f.turns).toBe(1);
    expect(f.api_retries).toBe(1);
    expect(r.server.requests).toHaveLength(2);
  });

  // Issue 28 item 5: on main a refused key was `crashed` here and `unavailable` on codex and gemini.
  it("401: claude retries it too (2.1.332 does, with an API key), then error unavailable naming the API error", {
    timeout: CONTRACT_TIMEOUT,
  }, async () => {
    const r = await runClaudeScenario({ script: always(apiError(401)), graph });
    const f = r.finished("ask");
    expect([r.code, f.status, f.stop_reason, f.cause]).toEqual([3, "error", "unavailable", "unavailable"]);
    expect(f.error).toMatch(/401|authentication|API key/i);
    expect(f.turns).toBe(0);
    expect(f.api_retries).toBe(retries);
    expect(r.server.requests).toHaveLength(retries + 1);
  });

  it("a stream cut in the middle of a message: error harness_error, never a pass on half an answer", {
    timeout: CONTRACT_TIMEOUT,
  }, async () => {
    const r = await runClaudeScenario({ script: always({ kind: "disconnect" }), graph });
    const f = r.finished("ask");
    expect([r.code, f.status, f.stop_reason, f.cause]).toEqual([3, "error", "crashed", "harness_error"]);
    expect(f.error).toMatch(/connection|ECONNRESET|dropped/i);
    expect(f.turns).toBe(0);
    // claude retries a dropped connection like an overload.
    expect(f.api_retries).toBe(retries);
    expect(r.server.requests).toHaveLength(retries + 1);
  });
});
