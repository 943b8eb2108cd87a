// argStringProblem: the kernel's MAX_ARG_STRLEN counts bytes of "NAME=value" and
// its NUL; a multi-byte value near the limit must be counted exactly.
import { describe, expect, test } from "vitest";
import { argStringProblem, MAX_ARG_STRLEN } from "../../src/spawn/arg-limits.ts";

describe("argStringProblem", () => {
  test("a variable of 43,690 three-byte characters (131,070 bytes) plus its name is over 128 KiB", () => {
    const value = "€".repeat(43_690);
    expect(new TextEncoder().encode(`X=${value}`).length + 1).toBeGreaterThan(MAX_ARG_STRLEN);
    expect(argStringProblem(["/bin/sh", "-c", "true"], { X: value })).toMatch(/^the environment variable X is 128\.0 KiB/);
  });

  test("just under the limit in bytes is fine; an argument is counted in bytes too", () => {
    expect(argStringProblem(["/bin/sh"], { X: "a".repeat(MAX_ARG_STRLEN - 3) })).toBeUndefined();
    expect(argStringProblem(["/bin/sh"], { X: "a".repeat(MAX_ARG_STRLEN - 2) })).toMatch(/environment variable X/);
    expect(argStringProblem(["/bin/sh", "-c", "é".repeat(65_536)], {})).toMatch(/^the shell command is 128\.0 KiB/);
  });
});
