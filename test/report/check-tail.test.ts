// Reports show a bounded part of a check's output: a recorded tail may be 64 KiB
// per stream, and 30 failed checks of that size would pass a job summary's 1 MiB.
import { describe, expect, test } from "vitest";
import { checkTail, REPORT_TAIL_CHARS } from "../../src/report/model.ts";
import type { CheckRecord } from "../../src/ledger/types.ts";

const check = (stdout: string, stderr = ""): CheckRecord => ({ stdout_tail: stdout, stderr_tail: stderr }) as unknown as CheckRecord;

describe("checkTail in reports", () => {
  test("a short output is shown whole, stderr after stdout", () => {
    expect(checkTail(check("out", "err"))).toBe("out\nerr");
  });

  test("64 KiB on each stream is cut to its last characters, marked, with the end (where the error is) kept", () => {
    const stdout = "a".repeat(64 * 1024);
    const stderr = `${"b".repeat(64 * 1024 - 6)}FAILED`;
    const shown = checkTail(check(stdout, stderr));
    expect(shown.length).toBeLessThan(REPORT_TAIL_CHARS + 100);
    expect(shown.endsWith("FAILED")).toBe(true);
    expect(shown.startsWith(`[… ${stdout.length + 1 + stderr.length - REPORT_TAIL_CHARS} characters before]`)).toBe(true);
  });
});
