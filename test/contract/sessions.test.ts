// Sittings that continue a session (ADR 0023) with the real claude and codex
// against the fake servers: the resumed sitting's command line is accepted by
// the real CLI (the flag parses and the session is found: the earlier
// conversation reaches the model again), and each sitting's cost is its own
// although claude reports a resumed session's cumulative total.
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeCli } from "./lib/skip.ts";
import { runClaudeScenario } from "./lib/claude.ts";
import { cleanupScratch, cliInstalled, codexHome, GEMINI_FAST_ENV, geminiHome, runContract, scratch } from "./lib/index.ts";
import { startGemini } from "./servers/gemini.ts";
import { always, answer } from "./servers/anthropic.ts";
import { MODEL, usageCosting } from "./claude-pricing.ts";
import { startOpenAiResponses } from "./servers/openai-responses.ts";
import type { FakeServer } from "./servers/scenarios.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const TIMEOUT = 120_000;

const twoNodes = (mode: "continue" | "fork") => `version: 1
name: sessions
defaults: { model: ${MODEL} }
nodes:
  implement:
    kind: agent
    prompt: "Implement the parser, remember the word PELICAN."
  fix:
    kind: agent
    needs: [implement]
    prompt: "Now fix the tests."
    session: { ${mode}: implement }
`;

/** The text of every message of a recorded request. */
const said = (body: Record<string, unknown>) => JSON.stringify(body.messages);

describeCli("claude", "claude sessions", () => {
  it("session: continue: --resume is accepted, the earlier conversation reaches the model, the cost is the sitting's own", {
    timeout: TIMEOUT,
  }, async () => {
    const r = await runClaudeScenario({ script: always(answer("Done.", usageCosting(0.3))), graph: twoNodes("continue") });
    expect(r.code, r.stderr).toBe(0);
    const implement = r.finished("implement");
    const fix = r.finished("fix");
    expect(fix).toMatchObject({ status: "passed", stop_reason: "complete", session_id: implement.session_id });
    expect(r.server.requests).toHaveLength(2);
    // The session was found: fix's request carries implement's prompt and answer before its own.
    const second = said(r.server.requests[1]!.body);
    expect(second).toContain("PELICAN");
    expect(second.indexOf("PELICAN")).toBeLessThan(second.indexOf("Now fix the tests."));
    // claude reported 0.6 for the resumed session (measured: its total counts earlier sittings); vouch records 0.3.
    expect(fix.cost_usd).toBeCloseTo(0.3, 4);
    expect(fix.session_cost_usd).toBeCloseTo(0.6, 4);
    expect(r.run().cost_usd).toBeCloseTo(0.6, 4);
  });

  it("session: fork: --resume with --fork-session starts a new session from the old one's history", { timeout: TIMEOUT }, async () => {
    const r = await runClaudeScenario({ script: always(answer("Done.", usageCosting(0.1))), graph: twoNodes("fork") });
    expect(r.code, r.stderr).toBe(0);
    const implement = r.finished("implement");
    const fix = r.finished("fix");
    expect(fix.status).toBe("passed");
    expect(fix.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fix.session_id).not.toBe(implement.session_id);
    expect(said(r.server.requests[1]!.body)).toContain("PELICAN");
    expect(fix.cost_usd).toBeCloseTo(0.1, 4);
  });

  it("retry: { session: continue }: the second sitting resumes the first's session with only the failure quoted", {
    timeout: TIMEOUT,
  }, async () => {
    const graph = `version: 1
name: retry
nodes:
  ask:
    kind: agent
    model: ${MODEL}
    prompt: "Write the word PELICAN in a file."
    retry: { max: 1, on: [check_failed], session: continue }
    success: { checks: [{ name: once, run: "test -f .seen || { touch .seen; echo not yet; exit 1; }" }] }
`;
    const r = await runClaudeScenario({ script: always(answer("Done.", usageCosting(0.2))), graph });
    expect(r.code, r.stderr).toBe(0);
    const f = r.finished("ask");
    expect(f).toMatchObject({ status: "passed", attempt: 2 });
    const retrying = r.events.find((e) => e.type === "node.retrying");
    expect(retrying && "session_id" in retrying ? retrying.session_id : undefined).toBe(f.session_id);
    const second = said(r.server.requests[1]!.body);
    // The task once (from the resumed session), then the failure as the new message.
    expect(second.split("PELICAN")).toHaveLength(2);
    expect(second).toContain("Your previous attempt (attempt 1) did not pass");
    expect(second).toContain("not yet");
    // Two sittings of $0.20 each: the node's sum, not 0.2 + 0.4.
    expect(f.cost_usd).toBeCloseTo(0.4, 4);
  });
});

let server: FakeServer;
let gemini: FakeServer;
beforeAll(() => {
  if (cliInstalled("codex")) server = startOpenAiResponses();
  if (cliInstalled("gemini")) gemini = startGemini();
});
afterAll(async () => {
  await server?.stop();
  await gemini?.stop();
  cleanupScratch();
});

const graphFile = (body: string) => {
  const cwd = scratch("work");
  const file = join(scratch("graph"), "graph.yaml");
  writeFileSync(file, body.replaceAll("CWD", JSON.stringify(cwd)));
  return file;
};

describeCli("codex", "codex sessions", () => {
  const thread = (r: Awaited<ReturnType<typeof runContract>>, node: string) =>
    r.events.find((e) => e.type === "node.finished" && e.node === node);

  // exec's own options (--model, --sandbox) go before the subcommand: they parse there too.
  it("session: continue and fork: exec resume / exec fork are accepted and find the thread", { timeout: TIMEOUT }, async () => {
    for (const mode of ["continue", "fork"] as const) {
      const file = graphFile(`version: 1
name: sessions
defaults: { harness: codex, cwd: CWD, caps: { wall: 90s } }
nodes:
  implement: { kind: agent, prompt: "Implement it." }
  fix: { kind: agent, needs: [implement], prompt: "Fix it.", model: fake-model, permission_mode: read-only, session: { ${mode}: implement } }
`);
      const r = await runContract(file, codexHome(server.base("plain")), { FAKE_OPENAI_KEY: "fake-key" });
      expect(r.code, r.stderr).toBe(0);
      const a = thread(r, "implement") as { session_id?: string };
      const b = thread(r, "fix") as { session_id?: string; status: string };
      expect(b.status).toBe("passed");
      expect(a.session_id).toMatch(/^[0-9a-f-]{36}$/);
      // resume goes on in the same thread; fork starts a new one (and a resume of an unknown thread exits 1).
      if (mode === "continue") expect(b.session_id).toBe(a.session_id);
      else expect(b.session_id).not.toBe(a.session_id);
    }
  });

  it("retry: { session: continue }: the retry resumes the failed attempt's thread", { timeout: TIMEOUT }, async () => {
    const file = graphFile(`version: 1
name: retry
nodes:
  ask:
    kind: agent
    harness: codex
    cwd: CWD
    caps: { wall: 90s }
    prompt: "Write it."
    retry: { max: 1, on: [check_failed], session: continue }
    success: { checks: [{ name: once, run: "test -f .seen || { touch .seen; exit 1; }" }] }
`);
    const r = await runContract(file, codexHome(server.base("plain")), { FAKE_OPENAI_KEY: "fake-key" });
    expect(r.code, r.stderr).toBe(0);
    const started = r.events.filter((e) => e.type === "node.started");
    const f = thread(r, "ask") as { session_id?: string; attempt: number };
    expect(f.attempt).toBe(2);
    expect(started[1] && "session" in started[1] ? started[1].session : undefined).toEqual({
      mode: "resume",
      id: f.session_id,
      node: "ask",
      attempt: 1,
    });
  });
});

describeCli("gemini", "gemini sessions", () => {
  it("session: continue: --resume=ID is accepted and finds the session (the same session id goes on)", { timeout: TIMEOUT }, async () => {
    const file = graphFile(`version: 1
name: sessions
defaults: { harness: gemini, cwd: CWD, caps: { wall: 90s } }
nodes:
  implement: { kind: agent, prompt: "Implement it." }
  fix: { kind: agent, needs: [implement], prompt: "Fix it.", session: { continue: implement } }
`);
    const base = gemini.base("plain");
    const r = await runContract(file, geminiHome(), { ...GEMINI_FAST_ENV, GEMINI_API_KEY: "fake-key", GOOGLE_GEMINI_BASE_URL: base });
    expect(r.code, r.stderr).toBe(0);
    const finished = r.events.filter((e) => e.type === "node.finished") as { node: string; status: string; session_id?: string }[];
    const [a, b] = [finished.find((e) => e.node === "implement")!, finished.find((e) => e.node === "fix")!];
    expect(b.status).toBe("passed");
    expect(a.session_id).toMatch(/^[0-9a-f-]{36}$/);
    // gemini exits 42 for an id it cannot find: passing with the same id is the session found.
    expect(b.session_id).toBe(a.session_id);
  });
});
