// A bad API key, the same situation on every harness (issue 28 item 5): each
// real CLI against its fake model server answering 401 to every request. On
// main claude called it `crashed` (after its own retries) and codex and gemini
// `unavailable`; now every harness says `unavailable` (no verdict, never
// retried: the next sitting meets the same key) with one wording, exit 3.
import { afterAll, expect, test } from "vitest";
import {
  cleanupScratch,
  cliInstalled,
  codexHome,
  describeCli,
  GEMINI_FAST_ENV,
  geminiHome,
  oneNodeGraph,
  runContract,
} from "./lib/index.ts";
import { oneAgentGraph, runClaudeScenario } from "./lib/claude.ts";
import { always, apiError } from "./servers/anthropic.ts";
import { startGemini } from "./servers/gemini.ts";
import { startOpenAiResponses } from "./servers/openai-responses.ts";
import { MODEL } from "./claude-pricing.ts";

afterAll(() => cleanupScratch());

const SAME = { status: "error", cause: "unavailable", stop_reason: "unavailable" };
const WORDING = /the API key or login was refused/;

describeCli("claude", "a bad API key: claude", () => {
  test("unavailable, exit 3", { timeout: 90_000 }, async () => {
    const r = await runClaudeScenario({ script: always(apiError(401)), graph: oneAgentGraph({ fields: [`model: ${MODEL}`] }) });
    expect(r.finished("ask")).toMatchObject(SAME);
    expect(r.finished("ask").error).toMatch(WORDING);
    expect(r.code).toBe(3);
  });
});

describeCli("codex", "a bad API key: codex", () => {
  test("unavailable, exit 3", { timeout: 90_000 }, async () => {
    const server = startOpenAiResponses();
    try {
      const { graph } = oneNodeGraph({ harness: "codex" });
      const r = await runContract(graph, codexHome(server.base("unauthorized")), { FAKE_OPENAI_KEY: "fake-key" });
      expect(r.node).toMatchObject(SAME);
      expect(r.node?.error).toMatch(WORDING);
      expect(r.code).toBe(3);
    } finally {
      await server.stop();
    }
  });
});

describeCli("gemini", "a bad API key: gemini", () => {
  test("unavailable, exit 3", { timeout: 120_000 }, async () => {
    const server = startGemini();
    try {
      const { graph } = oneNodeGraph({ harness: "gemini" });
      const env = { ...GEMINI_FAST_ENV, GEMINI_API_KEY: "fake-key", GOOGLE_GEMINI_BASE_URL: server.base("unauthorized") };
      const r = await runContract(graph, geminiHome(), env);
      expect(r.node).toMatchObject(SAME);
      expect(r.node?.error).toMatch(WORDING);
      expect(r.code).toBe(3);
    } finally {
      await server.stop();
    }
  });
});
