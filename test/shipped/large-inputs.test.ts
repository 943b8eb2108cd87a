// Inputs over 128 KiB through dist/vouch (issue 12, item 9). Each input used to
// be copied into every command's environment, and Linux refuses to start a
// program with one environment string over 128 KiB (E2BIG): with a review over
// 140 KB every `citations` check of the shipped finding-verifier could not
// start, every finding became UNVERIFIABLE, and the run still ended passed.
// Now inputs reach commands as files (VOUCH_INPUT_<NAME>_FILE), and only small
// ones also as variables.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { finished, ofType, vouch } from "./run-shipped.ts";

const dir = mkdtempSync(join(tmpdir(), "vouch-large-inputs-"));
const BIG = 150 * 1024;

beforeAll(() => void ensureBinary(), 120_000);

describe("the shipped finding-verifier with a 150 KB review (replay)", () => {
  test("every citations check runs, and the verdicts are those of the plain review", () => {
    const review = join(dir, "REVIEW-big.md");
    const padding = "\n<!-- padding -->\n" + "filler line of an overlong review\n".repeat(Math.ceil(BIG / 34));
    writeFileSync(review, readFileSync("examples/sample-repo/REVIEW.md", "utf8") + padding);
    expect(readFileSync(review).length).toBeGreaterThan(BIG);
    const run = vouch([
      "run",
      "graphs/finding-verifier.yaml",
      "--harness",
      "replay",
      "-i",
      `findings=@${review}`,
      "-i",
      "project_dir=examples/sample-repo",
      "--json",
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const checks = ofType(run.events, "check.finished").filter((c) => c.name === "citations");
    expect(checks.length).toBeGreaterThan(0);
    for (const c of checks) expect(c.stderr_tail + c.stdout_tail).not.toMatch(/E2BIG|could not start/);
    expect(ofType(run.events, "node.finished").filter((e) => e.cause === "harness_error")).toEqual([]);
    const verdicts = (finished(run.events).output as { verdicts: { item: { id: string }; verdict: string }[] }).verdicts;
    expect(verdicts.map((v) => [v.item.id, v.verdict])).toEqual([
      ["F1", "VERIFIED"],
      ["F2", "FALSE"],
      ["F3", "UNVERIFIABLE"],
      ["F4", "VERIFIED"],
      ["F5", "UNVERIFIABLE"],
      ["F6", "UNVERIFIABLE"],
    ]);
  }, 60_000);
});

describe("scripts and checks read a 150 KB input from its file", () => {
  test("VOUCH_INPUT_<NAME>_FILE holds the whole value; VOUCH_INPUT_<NAME> is set only for a small input", () => {
    const graph = join(dir, "big-input.yaml");
    writeFileSync(
      graph,
      `version: 1
name: big-input
inputs:
  big: { required: true }
  small: { default: hello }
checks:
  sized:
    run: 'test "$(wc -c < "$VOUCH_INPUT_BIG_FILE")" -eq ${BIG} && test -z "\${VOUCH_INPUT_BIG+set}" && test "$VOUCH_INPUT_SMALL" = hello && test "$(cat "$VOUCH_INPUT_SMALL_FILE")" = hello && echo sized-ok'
nodes:
  count:
    kind: script
    run: 'printf "{\\"bytes\\": %s, \\"inline\\": \\"%s\\"}" "$(wc -c < "$VOUCH_INPUT_BIG_FILE")" "\${VOUCH_INPUT_BIG+set}"'
    output: { format: json }
    success: { checks: [sized] }
`,
    );
    const value = join(dir, "big.txt");
    writeFileSync(value, "x".repeat(BIG));
    const run = vouch(["run", graph, "-i", `big=@${value}`, "--json"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const node = ofType(run.events, "node.finished").find((e) => e.node === "count")!;
    expect(node).toMatchObject({ status: "passed", output: { bytes: BIG, inline: "" } });
    const check = ofType(run.events, "check.finished").find((c) => c.name === "sized")!;
    expect(check).toMatchObject({ passed: true, exit: 0 });
    expect(check.stdout_tail).toContain("sized-ok");
  }, 60_000);
});
