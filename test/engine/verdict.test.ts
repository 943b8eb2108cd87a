// The success conjunction, JSON extraction, retry decisions and quoting: pure.
import { describe, expect, test } from "vitest";
import { judgeBeforeChecks, judgeChecks, judgeStop, type Parts } from "../../src/engine/verdict/conjunction.ts";
import { extractJson, stdoutObject } from "../../src/engine/verdict/json-extract.ts";
import { OutputSchemas } from "../../src/engine/verdict/output-schema.ts";
import { decideRetry, quoteFailure, QUOTE_LIMIT } from "../../src/engine/verdict/retry.ts";
import type { CheckOutcome } from "../../src/engine/ports.ts";

const parts: Parts = { exitZero: true, outputJudged: true, resultMatches: true, checks: 2 };
const schema = new OutputSchemas().compile({
  type: "object",
  required: ["verdict"],
  properties: { verdict: { enum: ["CONFIRMED", "REFUTED"] } },
});

function check(name: string, passed: boolean, extra: Partial<CheckOutcome> = {}): CheckOutcome {
  return {
    name,
    passed,
    expect: "exit_zero",
    exit: passed ? 0 : 1,
    signal: null,
    timedOut: false,
    durationMs: 3,
    stdoutTail: "",
    stderrTail: "",
    truncated: false,
    ...extra,
  };
}

describe("judgeStop: only a completed sitting is judged", () => {
  test.each([
    ["turns", "error", "cap_stop"],
    ["budget", "error", "cap_stop"],
    ["wall", "error", "cap_stop"],
    ["idle", "error", "cap_stop"],
    ["crashed", "error", "harness_error"],
    ["denied", "error", "harness_error"],
    ["unavailable", "error", "unavailable"],
    ["cancelled", "cancelled", "cancelled"],
  ] as const)("agent stop %s → %s %s (never failed)", (stop, status, cause) => {
    const j = judgeStop("agent", stop, parts, undefined, null)!;
    expect(j.status).toBe(status);
    expect(j.cause).toBe(cause);
    expect(j.status).not.toBe("failed");
    expect(j.evidence.every((e) => e.outcome === "not_checked")).toBe(true);
  });
  test("a script over its timeout is error timeout; a spawn failure is harness_error", () => {
    expect(judgeStop("script", "wall", parts, undefined, null)).toMatchObject({ status: "error", cause: "timeout" });
    expect(judgeStop("script", "spawn_failed", parts, "no such file", null)).toMatchObject({ status: "error", cause: "harness_error" });
  });
  test("a sitting cancelled because the run budget or wall was crossed is an error naming it", () => {
    expect(judgeStop("agent", "cancelled", parts, undefined, "budget")).toMatchObject({ status: "error", cause: "run_budget" });
    expect(judgeStop("agent", "cancelled", parts, undefined, "wall")).toMatchObject({ status: "error", cause: "run_wall" });
  });
  test("complete is judged further", () => {
    expect(judgeStop("agent", "complete", parts, undefined, null)).toBeNull();
  });
});

describe("judgeBeforeChecks", () => {
  const base = { parts, exitCode: 0, isScript: false, format: "json" as const, schema, resultMatches: /CONFIRMED/ };
  test("non-zero exit fails first; later parts are not_checked", () => {
    const r = judgeBeforeChecks({ ...base, exitCode: 2, text: "{}" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.judgement).toMatchObject({ status: "failed", cause: "nonzero_exit" });
    expect(r.judgement.evidence.map((e) => e.outcome)).toEqual(["failed", "not_checked", "not_checked", "not_checked"]);
  });
  test("invalid JSON → output_invalid with the parser's reason", () => {
    const r = judgeBeforeChecks({ ...base, text: "I think it is confirmed" });
    expect(r.ok || r.judgement.cause).toBe("output_invalid");
    expect(r.ok || r.judgement.error).toMatch(/not JSON/);
  });
  test("schema violation → output_invalid with ajv's message", () => {
    const r = judgeBeforeChecks({ ...base, text: '{"verdict":"MAYBE"}' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.judgement.cause).toBe("output_invalid");
    expect(r.judgement.error).toContain("must be equal to one of the allowed values");
  });
  test("stamps override the model's fields before the schema is checked", () => {
    const r = judgeBeforeChecks({ ...base, text: '{"verdict":"CONFIRMED","id":"MODEL-SAYS-9"}', stamp: { id: "F-1" } });
    expect(r.ok && r.output).toEqual({ verdict: "CONFIRMED", id: "F-1" });
  });
  test("result_matches alone gives self-reported; a mismatch is result_mismatch", () => {
    const ok = judgeBeforeChecks({ ...base, text: '{"verdict":"CONFIRMED"}' });
    expect(ok.ok && ok.selfReported).toBe(true);
    if (ok.ok) expect(judgeChecks(ok, []).qualifier).toBe("self-reported");
    const bad = judgeBeforeChecks({ ...base, text: '{"verdict":"REFUTED"}' });
    expect(bad.ok || bad.judgement.cause).toBe("result_mismatch");
  });
  test("a script's stdout that is one JSON object is its output without format: json", () => {
    const r = judgeBeforeChecks({
      parts: { ...parts, outputJudged: false, resultMatches: false },
      exitCode: 0,
      isScript: true,
      text: '{"n": 3}\n',
    });
    expect(r.ok && r.output).toEqual({ n: 3 });
    const t = judgeBeforeChecks({
      parts: { ...parts, outputJudged: false, resultMatches: false },
      exitCode: 0,
      isScript: true,
      text: "plain\n",
    });
    expect(t.ok && t.output).toBe("plain\n");
  });
  test("a truncated stdout is never read as JSON, and that is an error (output unreadable), never a FAIL", () => {
    const r = judgeBeforeChecks({ ...base, isScript: true, text: '{"verdict":"CONFIRMED"}', truncated: true, resultMatches: undefined });
    // The script may well have printed valid JSON: vouch could not keep it, so no verdict was reached (docs/architecture.md §5).
    expect(r.ok ? null : { status: r.judgement.status, cause: r.judgement.cause }).toEqual({ status: "error", cause: "harness_error" });
  });
});

describe("judgeChecks", () => {
  const before = judgeBeforeChecks({
    parts,
    exitCode: 0,
    isScript: false,
    format: "json",
    text: '{"verdict":"CONFIRMED"}',
    schema,
    resultMatches: /CONFIRMED/,
  });
  test("all checks passed → verified (evidence beats self-report)", () => {
    if (!before.ok) throw new Error("setup");
    expect(judgeChecks(before, [check("tests", true), check("lint", true)])).toMatchObject({ status: "passed", qualifier: "verified" });
  });
  test("every failed check is attached and named in the error", () => {
    if (!before.ok) throw new Error("setup");
    const j = judgeChecks(before, [
      check("tests", false),
      check("fmt", true),
      check("lint", false, { timedOut: true, exit: null, signal: "SIGKILL" }),
    ]);
    expect(j).toMatchObject({ status: "failed", cause: "check_failed" });
    expect(j.failedChecks.map((c) => c.name)).toEqual(["tests", "lint"]);
    expect(j.error).toBe("2 of 3 checks failed: tests (exit 1), lint (timed out)");
  });
});

describe("extractJson", () => {
  test("the whole text, else the last fenced block", () => {
    expect(extractJson(' {"a":1} ')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJson('Draft:\n```json\n{"a":1}\n```\nFinal:\n```json\n{"a":2}\n```\n')).toEqual({ ok: true, value: { a: 2 } });
    expect(extractJson("")).toMatchObject({ ok: false });
    expect(extractJson("```\nnot json\n```")).toMatchObject({ ok: false, message: expect.stringContaining("last fenced") });
  });
  test("stdoutObject accepts only one object", () => {
    expect(stdoutObject('{"x":1}')).toEqual({ x: 1 });
    expect(stdoutObject("[1,2]")).toBeUndefined();
    expect(stdoutObject('{"x":1}\n{"y":2}')).toBeUndefined();
  });
});

describe("retry", () => {
  test("by cause, from the closed set, within max", () => {
    const retry = { max: 1, on: ["output_invalid" as const] };
    expect(decideRetry(retry, 1, "failed", "output_invalid")).toEqual({ retry: true, backoffMs: 0 });
    expect(decideRetry(retry, 2, "failed", "output_invalid")).toEqual({ retry: false });
    expect(decideRetry(retry, 1, "failed", "check_failed")).toEqual({ retry: false });
  });
  test("cap_stop is not retried by default, only when named", () => {
    expect(decideRetry({ max: 2 }, 1, "error", "cap_stop")).toEqual({ retry: false });
    expect(decideRetry({ max: 2, on: ["cap_stop"] }, 1, "error", "cap_stop")).toMatchObject({ retry: true });
  });
  test("cancelled, run budget and run wall are never retried", () => {
    for (const cause of ["cancelled", "run_budget", "run_wall", "template_error"] as const) {
      expect(decideRetry({ max: 3 }, 1, "error", cause)).toEqual({ retry: false });
    }
  });
  test("the quote holds cause, error, failed checks with tails, and is bounded", () => {
    const q = quoteFailure(1, {
      cause: "check_failed",
      error: "1 of 1 check failed: tests (exit 1)",
      failedChecks: [check("tests", false, { stdoutTail: "FAIL src/a.test.ts\nexpected 2 got 3" })],
    });
    expect(q).toContain("cause: check_failed");
    expect(q).toContain("- tests: exit 1");
    expect(q).toContain("expected 2 got 3");
    const long = quoteFailure(1, { cause: "output_invalid", error: "x".repeat(10_000), failedChecks: [] });
    expect(long.length).toBeLessThanOrEqual(QUOTE_LIMIT);
    expect(long.startsWith("Your previous attempt (attempt 1)")).toBe(true);
  });
});
