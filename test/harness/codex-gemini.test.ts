// Codex (`exec --json`) and Gemini (`stream-json`) streams, in their documented
// formats (what the real CLIs print is in test/fixtures/{codex,gemini}).
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { createCodexParser } from "../../src/spawn/harness/codex/stream.ts";
import { createGeminiParser, GEMINI_EXIT_CODES, httpStatusOfExit } from "../../src/spawn/harness/gemini/stream.ts";
import { sanitize } from "../../src/text/sanitize.ts";
import { parseAll } from "./helpers.ts";

const lines = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join("\n");

describe("codex exec --json", () => {
  // The example from Codex's docs, verbatim.
  const DOC_EXAMPLE = [
    '{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}',
    '{"type":"turn.started"}',
    '{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"There is a README.md in the repository root."}}',
    '{"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}}',
  ].join("\n");

  test("the documented example: complete, 1 turn, cost unknown (null, not 0), cached tokens split out", () => {
    const { sitting, progress } = parseAll(createCodexParser(), DOC_EXAMPLE, { exit: 0 });
    expect(sitting.stopReason).toBe("complete");
    expect(sitting.resultText).toBe("There is a README.md in the repository root.");
    expect(sitting.turns).toBe(1);
    expect(sitting.costUsd).toBeNull();
    expect(sitting.tokens).toEqual({ input: 315, output: 122, cache_read: 24448, cache_creation: 0 });
    expect(sitting.sessionId).toBe("0199a213-81c0-7800-8aa1-bbab2a035a53");
    expect(progress.at(-1)?.turns).toBe(1);
    expect(progress.some((p) => p.costUsd !== undefined)).toBe(false);
  });

  // Issue 13 item 2: codex prints one turn.completed per exec, however many model responses it made.
  test("turns are model responses, counted live from the items, not from turn.completed", () => {
    const cmd = (id: string, status: string) => ({ id, type: "command_execution", command: "bun test", status });
    const text = lines(
      { type: "turn.started" },
      { type: "item.started", item: cmd("i1", "in_progress") },
      { type: "item.completed", item: cmd("i1", "completed") },
      { type: "item.completed", item: { id: "r2", type: "reasoning", text: "again" } },
      { type: "item.started", item: cmd("i2", "in_progress") },
      { type: "item.completed", item: cmd("i2", "completed") },
      { type: "item.completed", item: { id: "m3", type: "agent_message", text: "done" } },
      { type: "turn.completed", usage: { input_tokens: 20, cached_input_tokens: 10, output_tokens: 5 } },
    );
    const { progress, sitting } = parseAll(createCodexParser(), text, { exit: 0 });
    expect(progress.map((p) => p.turns)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(progress[0]!.activity).toBe("command bun test");
    expect(sitting.turns).toBe(3);
    expect(sitting.stopReason).toBe("complete");
    expect(sitting.tokens).toEqual({ input: 10, output: 5, cache_read: 10, cache_creation: 0 });
  });

  test("the response after the last tool result counts even when it shows no item", () => {
    const text = lines(
      { type: "turn.started" },
      { type: "item.completed", item: { id: "i1", type: "command_execution", command: "ls", status: "completed" } },
      { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    );
    expect(parseAll(createCodexParser(), text, { exit: 0 }).sitting.turns).toBe(2);
  });

  test("parallel tool calls of one response are one turn", () => {
    const c = (id: string, status: string) => ({ id, type: "command_execution", command: "ls", status });
    const text = lines(
      { type: "item.started", item: c("a", "in_progress") },
      { type: "item.started", item: c("b", "in_progress") },
      { type: "item.completed", item: c("a", "completed") },
      { type: "item.completed", item: c("b", "completed") },
      { type: "item.completed", item: { id: "m", type: "agent_message", text: "ok" } },
      { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    );
    expect(parseAll(createCodexParser(), text, { exit: 0 }).sitting.turns).toBe(2);
  });

  // Review of issue 13: the counter counted open calls, not which ones, so a call
  // reported only as completed (a file_change) closed another call still running,
  // and that call's own completion then counted as a new response.
  test("a completed-only call amid a running one does not end the response", () => {
    const c = (id: string, status: string) => ({ id, type: "command_execution", command: "ls", status });
    const text = lines(
      { type: "item.started", item: c("a", "in_progress") },
      { type: "item.completed", item: { id: "f", type: "file_change", changes: [], status: "completed" } },
      { type: "item.completed", item: c("a", "completed") },
      { type: "item.completed", item: { id: "m", type: "agent_message", text: "ok" } },
      { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    );
    expect(parseAll(createCodexParser(), text, { exit: 0 }).sitting.turns).toBe(2);
  });

  test("a call completed twice, or its completion repeated, closes it once", () => {
    const c = (id: string, status: string) => ({ id, type: "command_execution", command: "ls", status });
    const text = lines(
      { type: "item.started", item: c("a", "in_progress") },
      { type: "item.started", item: c("b", "in_progress") },
      { type: "item.completed", item: c("a", "completed") },
      { type: "item.completed", item: c("a", "completed") },
      { type: "item.completed", item: c("b", "completed") },
      { type: "item.completed", item: { id: "m", type: "agent_message", text: "ok" } },
      { type: "turn.completed", usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    );
    expect(parseAll(createCodexParser(), text, { exit: 0 }).sitting.turns).toBe(2);
  });

  // Review of issue 13: ADR 0018 says escape sequences are stripped from every
  // error text taken from a CLI; the codex parser kept them raw.
  test("no raw escape sequence from codex reaches the error (turn.failed, error event, stderr)", () => {
    const red = (t: string) => `\u001b[31m${t}\u001b[0m\u0007\u009b2K\u202e`;
    const failed = parseAll(createCodexParser(), lines({ type: "turn.failed", error: { message: red("stream disconnected") } }), {
      exit: 1,
    }).sitting;
    const errored = parseAll(createCodexParser(), lines({ type: "error", message: red("retrying") }), { exit: 1 }).sitting;
    const stderr = parseAll(createCodexParser(), "", { exit: 1, stderrTail: red("boom") }).sitting;
    const usage = parseAll(createCodexParser(), "", { exit: 2, stderrTail: red("error: unexpected argument") }).sitting;
    for (const s of [failed, errored, stderr, usage]) {
      expect(s.error).toBeDefined();
      expect(s.error).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    }
    expect(failed.error).toContain("stream disconnected");
    expect(stderr.error).toContain("boom");
  });

  test("turn.failed is crashed with its message, whatever the exit status", () => {
    const text = lines({ type: "turn.started" }, { type: "turn.failed", error: { message: "stream disconnected before completion" } });
    const { sitting } = parseAll(createCodexParser(), text, { exit: 0 });
    expect(sitting.stopReason).toBe("crashed");
    expect(sitting.error).toContain("stream disconnected before completion");
  });

  test("a non-zero exit with only a retry error is crashed naming the error; exit 0 with no completed turn too", () => {
    const text = lines({ type: "error", message: "Reconnecting... 1/5" });
    const failed = parseAll(createCodexParser(), text, { exit: 1, stderrTail: "fatal\n" }).sitting;
    expect(failed.stopReason).toBe("crashed");
    expect(failed.error).toContain("codex failed (exit 1): Reconnecting... 1/5");
    const usage = parseAll(createCodexParser(), "", {
      exit: 2,
      stderrTail: "error: unexpected argument '--skip-git-repo-check' found\n",
    }).sitting;
    expect(usage.stopReason).toBe("unavailable");
    expect(usage.error).toContain("vouch doctor");
    const empty = parseAll(createCodexParser(), "", { exit: 0 }).sitting;
    expect(empty.stopReason).toBe("crashed");
    expect(empty.turns).toBeNull();
    expect(empty.error).toContain("without a completed turn");
  });
});

describe("gemini --output-format stream-json", () => {
  const t = "2025-10-10T12:00:00.000Z";
  const SUCCESS = lines(
    { type: "init", timestamp: t, session_id: "g-123", model: "gemini-2.5-pro" },
    { type: "message", timestamp: t, role: "user", content: "Is there a README?" },
    { type: "tool_use", timestamp: t, tool_name: "list_directory", tool_id: "t1", parameters: { path: "." } },
    { type: "tool_result", timestamp: t, tool_id: "t1", status: "success", output: "README.md" },
    { type: "message", timestamp: t, role: "assistant", content: "Yes, ", delta: true },
    { type: "message", timestamp: t, role: "assistant", content: "README.md exists.", delta: true },
    {
      type: "result",
      timestamp: t,
      status: "success",
      stats: { total_tokens: 1300, input_tokens: 1200, output_tokens: 100, cached: 800, duration_ms: 2100, tool_calls: 1 },
    },
  );

  test("success: complete, turns counted per model turn, deltas joined, cost unknown, cached split out", () => {
    const { sitting, progress } = parseAll(createGeminiParser(), SUCCESS, { exit: 0 });
    expect(sitting.stopReason).toBe("complete");
    expect(sitting.resultText).toBe("Yes, README.md exists.");
    expect(sitting.turns).toBe(2);
    expect(sitting.costUsd).toBeNull();
    expect(sitting.tokens).toEqual({ input: 400, output: 100, cache_read: 800, cache_creation: 0 });
    expect(sitting.sessionId).toBe("g-123");
    expect(progress[0]).toEqual({ turns: 1, activity: "tool list_directory" });
  });

  test.each([
    [41, "unavailable"],
    [42, "crashed"],
    [44, "unavailable"],
    [52, "unavailable"],
    [53, "turns"],
    [54, "crashed"],
    [55, "unavailable"],
    [130, "cancelled"],
  ])("exit %i maps to %s, named in the error", (exit, reason) => {
    const { sitting } = parseAll(createGeminiParser(), "", { exit, stderrTail: "details here\n" });
    expect(sitting.stopReason).toBe(reason);
    expect(sitting.error).toContain(`exit ${exit}`);
    expect(sitting.error).toContain(GEMINI_EXIT_CODES[exit]!.what);
    expect(sitting.error).toContain("details here");
  });

  // Issue 13 item 3: gemini colours its fatal message even in a pipe.
  test("exit 55 (untrusted folder): unavailable, no escape sequence kept in the error", () => {
    const stderr = "\u001b[31mGemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`\u001b[0m\n";
    const { sitting } = parseAll(createGeminiParser(), "", { exit: 55, stderrTail: stderr });
    expect(sitting.stopReason).toBe("unavailable");
    expect(sitting.error).toContain("not running in a trusted directory");
    expect(sitting.error).not.toMatch(/[\u0000-\u001f]/);
  });

  // ADR 0018 says no raw escape sequence from gemini reaches a record; the error
  // quoted a result's status raw ("gemini ended with result status \"<ESC>[31m…\"").
  test("property: no raw escape sequence from gemini reaches the error, whatever its result status, error text or stderr", () => {
    const hostile = fc.string({
      unit: fc.constantFrom("\u001b", "[", "3", "1", "m", "]", "\u0007", "\u009b", "\u202e", "a", " ", "\n"),
      maxLength: 24,
    });
    fc.assert(
      fc.property(hostile, hostile, hostile, fc.constantFrom(0, 1, 41, 173, 244, null), (status, message, stderr, exit) => {
        const text = lines(
          { type: "message", timestamp: t, role: "assistant", content: "hi" },
          { type: "error", timestamp: t, severity: "error", message },
          { type: "result", timestamp: t, status, error: { message } },
        );
        const { sitting } = parseAll(createGeminiParser(), text, { exit, signal: exit === null ? "SIGKILL" : null, stderrTail: stderr });
        expect(sitting.error ?? "").not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
      }),
    );
  });

  test("sanitize (the one stripper the parsers use) removes CSI, OSC and stray controls, keeps the words", () => {
    expect(sanitize("\u001b[31mred\u001b[0m \u001b]0;title\u0007text\u0007\u001b[2K")).toBe("red text");
    fc.assert(fc.property(fc.string(), (s) => !/\u001b/.test(sanitize(s))));
  });

  // Issue 13 item 4: this was complete (then failed/output_invalid on the empty answer).
  test("loop detection then a success result and exit 0: stop reason loop, the repeated response counted", () => {
    const text = lines(
      { type: "tool_use", timestamp: t, tool_name: "list_directory", tool_id: "t1", parameters: { path: "." } },
      { type: "tool_result", timestamp: t, tool_id: "t1", status: "success", output: "" },
      { type: "error", timestamp: t, severity: "warning", message: "Loop detected, stopping execution" },
      {
        type: "result",
        timestamp: t,
        status: "success",
        stats: { total_tokens: 2, input_tokens: 1, output_tokens: 1, cached: 0, duration_ms: 1, tool_calls: 1 },
      },
    );
    const { sitting } = parseAll(createGeminiParser(), text, { exit: 0 });
    expect(sitting.stopReason).toBe("loop");
    expect(sitting.turns).toBe(2);
    expect(sitting.error).toContain("Loop detected");
  });

  test("an HTTP error exit (status mod 256) is named: 429 → 173 rate_limited, 500 → 244 crashed, 401 → 145 unavailable; 144..255 only", () => {
    const err = lines({
      type: "result",
      timestamp: t,
      status: "error",
      error: { type: "unknown", message: "[API Error: quota]" },
      stats: {},
    });
    expect(parseAll(createGeminiParser(), err, { exit: 173 }).sitting).toMatchObject({
      stopReason: "rate_limited",
      error: expect.stringContaining("gemini hit a usage or rate limit"),
    });
    expect(parseAll(createGeminiParser(), err, { exit: 244 }).sitting).toMatchObject({
      stopReason: "crashed",
      error: expect.stringContaining("exit 244: HTTP 500"),
    });
    expect(parseAll(createGeminiParser(), err, { exit: 145 }).sitting.stopReason).toBe("unavailable");
    expect(httpStatusOfExit(41)).toBeNull();
    expect(httpStatusOfExit(143)).toBeNull();
    expect(httpStatusOfExit(255)).toBe(511);
  });

  test("result status error is crashed with its message (rate_limited when it says quota exceeded); no result is crashed", () => {
    const err = lines({
      type: "result",
      timestamp: t,
      status: "error",
      error: { type: "ApiError", message: "the model had an internal error" },
      stats: {},
    });
    expect(parseAll(createGeminiParser(), err, { exit: 1 }).sitting).toMatchObject({
      stopReason: "crashed",
      error: expect.stringContaining("internal error"),
    });
    const quota = lines({
      type: "result",
      timestamp: t,
      status: "error",
      error: { type: "ApiError", message: "quota exceeded" },
      stats: {},
    });
    expect(parseAll(createGeminiParser(), quota, { exit: 1 }).sitting).toMatchObject({
      stopReason: "rate_limited",
      error: expect.stringContaining("quota exceeded"),
    });
    const none = parseAll(createGeminiParser(), "Loaded cached credentials.", { exit: 0 }).sitting;
    expect(none.stopReason).toBe("crashed");
    expect(none.error).toContain("no result event");
  });
});
