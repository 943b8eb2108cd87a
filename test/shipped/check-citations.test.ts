// graphs/lib/check-citations.sh: the evidence behind finding-verifier's
// VERIFIED and FALSE verdicts. Run for real with sh on the sample repository.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { GRAPHS, SAMPLE_REPO } from "./run-shipped.ts";

const SCRIPT = join(GRAPHS, "lib", "check-citations.sh");

function check(output: unknown): { exit: number; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "vouch-cite-"));
  const file = join(dir, "output.json");
  writeFileSync(file, JSON.stringify(output));
  const r = Bun.spawnSync(["sh", SCRIPT], {
    cwd: SAMPLE_REPO,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", VOUCH_OUTPUT_FILE: file },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { exit: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe("check-citations.sh", () => {
  test("citations that hold pass, whatever order the fields and however odd the quoted text", () => {
    const r = check({
      id: "F2",
      verdict: "FALSE",
      evidence: [
        { quote: "if (!match) throw new Error(`bad duration: ${text}`);", at: "src/duration.js:4" },
        { at: "src/cache.js:16", quote: "return entry.value;" },
      ],
      note: 'a note with {braces} and "quotes"',
    });
    expect(r).toMatchObject({ exit: 0 });
    expect(r.stdout).toContain("2 citation(s) hold");
  });

  test("a line past the end of the file fails, naming the file's length", () => {
    const r = check({ verdict: "VERIFIED", evidence: [{ at: "src/cache.js:40", quote: "return this.entries.size;" }] });
    expect(r.exit).toBe(1);
    expect(r.stderr).toContain("src/cache.js has 22 lines; cited line 40");
  });

  test("a quote that is not on the cited line fails and shows both", () => {
    const r = check({ verdict: "VERIFIED", evidence: [{ at: "src/slug.js:5", quote: "toUpperCase" }] });
    expect(r.exit).toBe(1);
    expect(r.stderr).toContain("line 5 does not contain the quote");
    expect(r.stderr).toContain('actual:     .replace(/[^a-z]+/g, "-")');
  });

  test("a missing file fails; so does a VERIFIED or FALSE with no evidence", () => {
    expect(check({ verdict: "FALSE", evidence: [{ at: "src/net.js:1", quote: "retry" }] }).stderr).toContain("no such file: src/net.js");
    const none = check({ verdict: "VERIFIED", evidence: [] });
    expect(none.exit).toBe(1);
    expect(none.stderr).toContain("verdict VERIFIED cites no evidence");
  });

  test("UNVERIFIABLE needs no citation; one bad citation among good ones still fails", () => {
    expect(check({ verdict: "UNVERIFIABLE", evidence: [] }).exit).toBe(0);
    const mixed = check({
      verdict: "VERIFIED",
      evidence: [
        { at: "src/cache.js:16", quote: "return entry.value;" },
        { at: "src/cache.js:0", quote: "x" },
      ],
    });
    expect(mixed.exit).toBe(1);
    expect(mixed.stdout).toContain("src/cache.js:16: ok");
  });

  test("text from the model is never run: a quote holding shell syntax is only compared", () => {
    const marker = join(mkdtempSync(join(tmpdir(), "vouch-pwn-")), "pwned");
    const r = check({ verdict: "VERIFIED", evidence: [{ at: "src/cache.js:16", quote: `$(touch ${marker}); \`touch ${marker}\`` }] });
    expect(r.exit).toBe(1);
    expect(existsSync(marker)).toBe(false);
  });
});
