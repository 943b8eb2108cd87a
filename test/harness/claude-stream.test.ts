// vouch's own Claude Code fixtures: stream-json, the array form, an API error
// reported as success, a stream with no result; plus live progress.
import { describe, expect, test } from "vitest";
import { classifyClaudeResult } from "../../src/spawn/harness/claude/result.ts";
import { createClaudeParser } from "../../src/spawn/harness/claude/stream.ts";
import { fixture, parseAll } from "./helpers.ts";

describe("Claude stream-json", () => {
  test("a streamed success: result, turns, cost, tokens from the result; unknown event types ignored", () => {
    const { sitting } = parseAll(createClaudeParser(), fixture("stream-success.jsonl"));
    expect(sitting.stopReason).toBe("complete");
    expect(sitting.resultText).toBe("PASS: README.md exists");
    expect(sitting.turns).toBe(2);
    expect(sitting.costUsd).toBe(0.0213);
    expect(sitting.tokens).toEqual({ input: 4, output: 43, cache_read: 1400, cache_creation: 1520 });
    expect(sitting.sessionId).toBe("7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f");
    expect(sitting.permissionDenials).toBe(0);
  });

  test("live progress: turns count up per assistant message, tokens sum the messages, activity names the tool", () => {
    const { progress } = parseAll(createClaudeParser(), fixture("stream-success.jsonl"));
    // The api_retry line first: shown live, counted, no turn.
    expect(progress[0]).toEqual({ turns: 0, activity: "API retry 1/10, 529", apiRetries: 1 });
    expect(progress[1]).toEqual({
      turns: 1,
      tokens: { input: 3, output: 31, cache_read: 0, cache_creation: 1400 },
      activity: "tool Bash",
      apiRetries: 1,
    });
    expect(progress[2]).toEqual({
      turns: 2,
      tokens: { input: 4, output: 43, cache_read: 1400, cache_creation: 1520 },
      activity: "PASS: README.md exists",
      apiRetries: 1,
    });
    // The result line brings the cost; before it, the cost is unknown (absent), never 0.
    expect(progress[2]!.costUsd).toBeUndefined();
    expect(progress[3]!.costUsd).toBe(0.0213);
  });

  test("one assistant message split over several events counts as one turn", () => {
    const parser = createClaudeParser();
    const msg = (text: string) => JSON.stringify({ type: "assistant", message: { id: "msg_X", content: [{ type: "text", text }] } });
    parser.feed(msg("part one"));
    const p = parser.feed(msg("part two"));
    expect(p?.turns).toBe(1);
    expect(p?.activity).toBe("part two");
  });

  test("the array form (--output-format json --verbose) parses to the same sitting", () => {
    const stream = parseAll(createClaudeParser(), fixture("stream-success.jsonl")).sitting;
    const array = parseAll(createClaudeParser(), fixture("array-success.json")).sitting;
    // The array fixture carries no api_retry line; everything else is the same.
    const { apiRetries, ...rest } = stream;
    expect(apiRetries).toBe(1);
    expect(array).toEqual(rest);
  });

  test("the array form pretty-printed over many lines parses too", () => {
    const pretty = JSON.stringify(JSON.parse(fixture("array-success.json")), null, 2);
    const { sitting } = parseAll(createClaudeParser(), pretty);
    expect(sitting.stopReason).toBe("complete");
    expect(sitting.turns).toBe(2);
  });

  test("success with is_error (an API 429 with exit 0) is rate_limited (issue 16), with the result text as the error", () => {
    const { sitting } = parseAll(createClaudeParser(), fixture("success-is-error.jsonl"), { exit: 0 });
    expect(sitting.stopReason).toBe("rate_limited");
    expect(sitting.error).toContain("claude hit a usage or rate limit");
    expect(sitting.error).toContain("rate_limit_error");
    expect(sitting.costUsd).toBe(0);
  });

  test("a stream that ends with no result is crashed, quoting the stderr tail; cost stays unknown", () => {
    const { sitting } = parseAll(createClaudeParser(), fixture("missing-result.jsonl"), {
      exit: 1,
      stderrTail: "some warning\nError: connection reset by peer\n",
    });
    expect(sitting.stopReason).toBe("crashed");
    expect(sitting.error).toContain("no result event");
    expect(sitting.error).toContain("exit 1");
    expect(sitting.error).toContain("Error: connection reset by peer");
    expect(sitting.costUsd).toBeNull();
    expect(sitting.turns).toBe(2);
    expect(sitting.tokens).toEqual({ input: 4, output: 43, cache_read: 1400, cache_creation: 1520 });
  });

  test("a streamed turn cap: turns stop with the recorded 2 turns", () => {
    const { sitting } = parseAll(createClaudeParser(), fixture("stream-max-turns.jsonl"), { exit: 1 });
    expect(sitting.stopReason).toBe("turns");
    expect(sitting.turns).toBe(2);
    expect(sitting.resultText).toBe("");
  });

  test("error_during_execution after a permission denial is `denied`, with the denial counted", () => {
    const { sitting } = parseAll(createClaudeParser(), fixture("denied.jsonl"), { exit: 1 });
    expect(sitting.stopReason).toBe("denied");
    expect(sitting.permissionDenials).toBe(1);
    expect(sitting.error).toContain("Permission to use Bash has been denied.");
  });

  test("garbage output and a stream cut mid-line are crashed, and say what was read", () => {
    const garbage = parseAll(createClaudeParser(), "Welcome to the CLI!\nnot json at all\n", { exit: 0 }).sitting;
    expect(garbage.stopReason).toBe("crashed");
    expect(garbage.turns).toBeNull();
    expect(garbage.error).toContain("2 line(s) were not JSON");
    const lines = fixture("stream-success.jsonl").split("\n");
    const cut = [...lines.slice(0, 4), lines[7]!.slice(0, 40)].join("\n");
    const s = parseAll(createClaudeParser(), cut, { exit: 1 }).sitting;
    expect(s.stopReason).toBe("crashed");
    expect(s.error).toContain('{"type":"result"');
  });
});

describe("classifyClaudeResult: the whole stop-reason mapping", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ subtype: "success", is_error: false, api_error_status: null }, "complete"],
    [{ subtype: "success", is_error: false }, "complete"],
    [{ subtype: "success", is_error: true, result: "x" }, "crashed"],
    [{ subtype: "success", is_error: false, api_error_status: 500 }, "crashed"],
    // A refused key or login is unavailable on every harness (issue 28 item 5).
    [{ subtype: "success", is_error: false, api_error_status: 401 }, "unavailable"],
    [{ subtype: "success", is_error: true, api_error_status: 401, result: "Invalid API key · Fix external API key" }, "unavailable"],
    [{ subtype: "success", is_error: true, api_error_status: 403, result: "forbidden" }, "unavailable"],
    [{ subtype: "success", is_error: true, result: "Not logged in · Please run /login" }, "unavailable"],
    [{ subtype: "success", is_error: true, api_error_status: 429, result: "Invalid API key?" }, "crashed"],
    [{ subtype: "error_max_turns", is_error: true }, "turns"],
    [{ subtype: "error_max_budget_usd", is_error: true }, "budget"],
    [{ subtype: "error_during_execution", is_error: true }, "crashed"],
    [{ subtype: "error_during_execution", is_error: true, permission_denials: [{}] }, "denied"],
    [{ subtype: "error_max_structured_output_retries", is_error: true }, "crashed"],
    [{ subtype: "something_new", is_error: true }, "crashed"],
    [{ subtype: "success", is_error: true, terminal_reason: "max_turns" }, "turns"],
    [{ subtype: "success", is_error: true, terminal_reason: "budget_exhausted" }, "budget"],
  ];
  test.each(cases)("%j -> %s", (result, expected) => {
    expect(classifyClaudeResult(result).stopReason).toBe(expected);
  });
});

describe("Claude stream-json: rate_limit_event lines are bounded", () => {
  test("a stream of 200,000 rate_limit_event lines keeps almost nothing of them; a rejected one before them still names the reset", () => {
    const parser = createClaudeParser();
    const heap = () => {
      Bun.gc(true);
      return process.memoryUsage().heapUsed;
    };
    parser.feed(
      JSON.stringify({
        type: "rate_limit_event",
        rate_limit_info: { status: "rejected", resetsAt: 1796137200, rateLimitType: "five_hour" },
      }) + "\n",
    );
    const before = heap();
    const line =
      JSON.stringify({
        type: "rate_limit_event",
        rate_limit_info: { status: "allowed", resetsAt: 1796137200, rateLimitType: "five_hour", isUsingOverage: false },
      }) + "\n";
    for (let i = 0; i < 200_000; i++) parser.feed(line);
    const grown = heap() - before;
    // Kept, they are ~40 MB of objects; only the latest rejected ones are needed.
    expect(grown).toBeLessThan(8 * 2 ** 20);
    parser.feed(
      JSON.stringify({
        type: "result",
        subtype: "success",
        is_error: true,
        api_error: "usage_limit_reached",
        result: "You've hit your limit",
        num_turns: 0,
        total_cost_usd: 0,
      }) + "\n",
    );
    const sitting = parser.finish({ exitCode: 1, signal: null, endedAt: Date.UTC(2026, 10, 30, 12) } as never);
    expect(sitting.stopReason).toBe("rate_limited");
    expect(sitting.resetsAt).toBe(1796137200 * 1000);
  });
});
