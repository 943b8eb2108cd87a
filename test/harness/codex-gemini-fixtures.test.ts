// The adapters' parsers on what the real codex 0.171.0 and gemini 0.61.0
// printed (recorded by test/contract/codex-gemini-fixtures.ts against the fake
// model servers; test/contract/codex-gemini-fixtures.test.ts fails when the
// pinned CLIs no longer print these shapes).
import { describe, expect, test } from "vitest";
import { createCodexParser } from "../../src/spawn/harness/codex/stream.ts";
import { createGeminiParser } from "../../src/spawn/harness/gemini/stream.ts";
import { readExits, readFixture } from "../contract/codex-gemini-fixtures.ts";
import { BLOCK_TEXTS, PLAIN_ANSWER } from "../contract/servers/scenarios.ts";
import { parseAll } from "./helpers.ts";

const codexExits = readExits("codex");
const geminiExits = readExits("gemini");
const codex = (s: string) => parseAll(createCodexParser(), readFixture("codex", s as never), { exit: codexExits[s]! }).sitting;
const gemini = (s: string) => parseAll(createGeminiParser(), readFixture("gemini", s as never), { exit: geminiExits[s]! }).sitting;

describe("codex 0.171.0 recorded output", () => {
  test("plain and json: complete, one turn, tokens, the answer", () => {
    expect(codex("plain")).toMatchObject({
      stopReason: "complete",
      turns: 1,
      costUsd: null,
      resultText: PLAIN_ANSWER,
      tokens: { input: 100, output: 20 },
    });
    expect(JSON.parse(codex("json").resultText)).toEqual({ verdict: "clean", findings: 0 });
  });

  test("two tool calls then an answer: three model responses, though turn.completed came once", () => {
    expect(codex("tools-then-answer")).toMatchObject({
      stopReason: "complete",
      turns: 3,
      resultText: PLAIN_ANSWER,
      tokens: { input: 300, output: 60 },
    });
  });

  test("several output items: the last message is the result", () => {
    expect(codex("blocks")).toMatchObject({ stopReason: "complete", turns: 1, resultText: BLOCK_TEXTS[2] });
  });

  test("429 is rate_limited (issue 16) and a dropped stream crashed, with codex's words; 401 is unavailable", () => {
    expect(codex("rate-limited")).toMatchObject({ stopReason: "rate_limited", turns: 0 });
    expect(codex("rate-limited").error).toContain("429 Too Many Requests");
    expect(codex("disconnect").error).toContain("stream disconnected");
    expect(codex("unauthorized")).toMatchObject({ stopReason: "unavailable" });
  });
});

describe("gemini 0.61.0 recorded output", () => {
  test("plain and json: complete, one turn, no cost, the answer", () => {
    expect(gemini("plain")).toMatchObject({ stopReason: "complete", turns: 1, costUsd: null, resultText: PLAIN_ANSWER });
    expect(JSON.parse(gemini("json").resultText)).toEqual({ verdict: "clean", findings: 0 });
  });

  test("streamed deltas of one answer are one turn, joined", () => {
    expect(gemini("blocks")).toMatchObject({ stopReason: "complete", turns: 1, resultText: BLOCK_TEXTS.join("") });
  });

  test("two tool calls then an answer: three turns", () => {
    expect(gemini("tools-then-answer")).toMatchObject({ stopReason: "complete", turns: 3, resultText: PLAIN_ANSWER });
  });

  test("loop detection: stop reason loop although the result says success and the exit is 0", () => {
    const s = gemini("tools-same");
    expect(geminiExits["tools-same"]).toBe(0);
    expect(s.stopReason).toBe("loop");
    expect(s.turns).toBe(5);
    expect(s.error).toContain("Loop detected");
  });

  test("HTTP errors exit with their status modulo 256: 429 exits 173 (rate_limited), 401 exits 145 (unavailable)", () => {
    expect(geminiExits).toMatchObject({ "rate-limited": 173, unauthorized: 145 });
    expect(gemini("rate-limited")).toMatchObject({ stopReason: "rate_limited" });
    expect(gemini("rate-limited").error).toContain("Quota exceeded");
    expect(gemini("unauthorized")).toMatchObject({ stopReason: "unavailable" });
    expect(gemini("disconnect")).toMatchObject({ stopReason: "crashed" });
  });
});
