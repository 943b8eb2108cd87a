// The pure judge of a finished check (src/spawn/expect.ts) and its one-line reasons.
import { describe, expect, test } from "vitest";
import { describeExpect, expectProblem, judgeCheck, type FinishedCheck } from "../../src/spawn/expect.ts";

const ok: FinishedCheck = {
  exit: 0,
  signal: null,
  timedOut: false,
  timeoutMs: 120_000,
  stdout: "",
  stderr: "",
  stdoutBytes: 0,
  stdoutTruncated: false,
};
const run = (over: Partial<FinishedCheck>): FinishedCheck => ({ ...ok, ...over });

describe("exit_zero", () => {
  test("passes on exit 0, fails otherwise with the exit named", () => {
    expect(judgeCheck("exit_zero", ok)).toEqual({ passed: true });
    expect(judgeCheck("exit_zero", run({ exit: 1 }))).toEqual({ passed: false, reason: "exit 1, expected 0" });
  });
  test("the shell's 127 is named as command not found", () => {
    expect(judgeCheck("exit_zero", run({ exit: 127 })).reason).toBe("exit 127 (command not found), expected 0");
    expect(judgeCheck({ exit: 0 }, run({ exit: 126 })).reason).toBe("exit 126 (command not executable), expected 0");
  });
});

describe("empty_output", () => {
  test("a gofmt -l style result (exit 0, one file name) fails, naming the file", () => {
    const j = judgeCheck("empty_output", run({ stdout: "main.go\n", stdoutBytes: 8 }));
    expect(j).toEqual({ passed: false, reason: "printed 1 line, expected no output: main.go" });
  });
  test("several lines: counted, the first two shown", () => {
    const j = judgeCheck("empty_output", run({ stdout: "a.go\nb.go\nc.go\n", stdoutBytes: 15 }));
    expect(j.reason).toBe("printed 3 lines, expected no output: a.go, b.go, …");
  });
  test("whitespace-only stdout counts as empty; stderr is not judged", () => {
    expect(judgeCheck("empty_output", run({ stdout: " \n\t\n", stdoutBytes: 4, stderr: "warning: x" }))).toEqual({ passed: true });
  });
  test("a non-zero exit fails even with empty stdout", () => {
    expect(judgeCheck("empty_output", run({ exit: 2 })).reason).toBe("exit 2, expected 0 and no output");
  });
  test("a truncated stdout is reported by bytes", () => {
    const j = judgeCheck("empty_output", run({ stdout: "x.go\n", stdoutBytes: 900_000, stdoutTruncated: true }));
    expect(j.reason).toBe("printed 900000 bytes, expected no output: x.go");
  });
});

describe("{ exit: N }", () => {
  test("passes only on that exit", () => {
    expect(judgeCheck({ exit: 3 }, run({ exit: 3 }))).toEqual({ passed: true });
    expect(judgeCheck({ exit: 3 }, ok)).toEqual({ passed: false, reason: "exit 0, expected 3" });
  });
});

describe("{ output_matches: RE }", () => {
  test("searches stdout, then stderr; ^ and $ work per line", () => {
    expect(judgeCheck({ output_matches: "^ok \\d+ tests$" }, run({ stdout: "running\nok 12 tests\n" })).passed).toBe(true);
    expect(judgeCheck({ output_matches: "Finished" }, run({ stderr: "   Finished release" })).passed).toBe(true);
  });
  test("the exit status is not judged", () => {
    expect(judgeCheck({ output_matches: "PASS" }, run({ exit: 1, stdout: "PASS" })).passed).toBe(true);
  });
  test("no match fails with the pattern and the exit", () => {
    expect(judgeCheck({ output_matches: "^PASS" }, run({ stdout: "FAIL" }))).toEqual({
      passed: false,
      reason: "output does not match /^PASS/ (exit 0)",
    });
  });
  test("an invalid pattern is found before running", () => {
    expect(expectProblem({ output_matches: "(" })).toMatch(/^output_matches is not a valid regular expression: /);
    expect(expectProblem({ output_matches: "a+" })).toBeNull();
    expect(expectProblem("exit_zero")).toBeNull();
  });
});

describe("timeouts never pass; a signal passes only when expect names its shell exit", () => {
  test("a timed-out check fails with its timeout, whatever the expectation", () => {
    for (const e of ["exit_zero", "empty_output", { exit: 0 }, { output_matches: "" + "x" }] as const) {
      const j = judgeCheck(e, run({ exit: null, signal: "SIGTERM", timedOut: true, timeoutMs: 90_000, stdout: "x" }));
      expect(j).toEqual({ passed: false, reason: "timed out after 1m30s" });
    }
  });
  test("a check killed by a signal did not finish, naming the signal", () => {
    expect(judgeCheck({ output_matches: "x" }, run({ exit: null, signal: "SIGSEGV", stdout: "x" })).reason).toBe(
      "killed by SIGSEGV (exit 139 to a shell): the check did not finish",
    );
    expect(judgeCheck({ exit: 137 }, run({ exit: null, signal: "SIGSEGV" })).passed).toBe(false);
  });
  test("an expect naming 128 + the signal's number expected the death; an unknown signal name never passes", () => {
    expect(judgeCheck({ exit: 139 }, run({ exit: null, signal: "SIGSEGV" }))).toEqual({ passed: true });
    expect(judgeCheck({ exit: 137 }, run({ exit: null, signal: "SIGKILL" }))).toEqual({ passed: true });
    expect(judgeCheck({ exit: 128 }, run({ exit: null, signal: "SIGNOPE" })).reason).toBe("killed by SIGNOPE: the check did not finish");
    expect(judgeCheck({ exit: 0 }, run({ exit: null, signal: "__proto__" })).passed).toBe(false);
  });
});

test("describeExpect writes the expectation as the graph does", () => {
  expect(describeExpect("exit_zero")).toBe("exit_zero");
  expect(describeExpect("empty_output")).toBe("empty_output");
  expect(describeExpect({ exit: 3 })).toBe("exit 3");
  expect(describeExpect({ output_matches: "^ok" })).toBe("output_matches /^ok/");
});

test("docs/graph-language.md says what empty_output and output_matches read, and the judge does that", async () => {
  const { readFileSync } = await import("node:fs");
  const doc = readFileSync(new URL("../../docs/graph-language.md", import.meta.url), "utf8").replace(/\s+/g, " ");
  expect(doc).toContain(
    "`empty_output`: exit 0 and nothing on stdout but whitespace (spaces, tabs and newlines count as empty); stderr is not judged",
  );
  expect(judgeCheck("empty_output", run({ stdout: " \t\n\n", stdoutBytes: 4, stderr: "a warning" }))).toEqual({ passed: true });
  expect(doc).toContain(
    "`output_matches`: the expression is searched in stdout **and in stderr** (a match in either passes), with `^` and `$` matching at each line; the exit status is not judged",
  );
  expect(judgeCheck({ output_matches: "^ok$" }, run({ stdout: "nothing here", stderr: "first\nok\nlast", exit: 7 }))).toEqual({
    passed: true,
  });
});
