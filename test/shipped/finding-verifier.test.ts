// graphs/finding-verifier.yaml end to end on the replay harness, over the sample
// repository: the verdicts a caller receives, and the evidence behind each.
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { finished, ofType, SAMPLE_REPO, vouch, type ShippedRun } from "./run-shipped.ts";

const ARGS = [
  "run",
  "graphs/finding-verifier.yaml",
  "--harness",
  "replay",
  "-i",
  "findings=@examples/sample-repo/REVIEW.md",
  "-i",
  "project_dir=examples/sample-repo",
];

let run: ShippedRun;
beforeAll(() => {
  ensureBinary();
  run = vouch([...ARGS, "--json"]);
}, 60_000);

describe("finding-verifier on the sample repository (replay)", () => {
  test("the caller contract: one verdict per finding, in the review's order, ids stamped from the item", () => {
    expect(run.exitCode).toBe(0);
    const end = finished(run.events);
    expect(end).toMatchObject({ status: "passed", exit_code: 0 });
    const output = end.output as {
      sentinel: string;
      verdicts: { index: number; item: { id: string }; verdict: string; output: { id: string } }[];
    };
    expect(output.sentinel).toBe("FINDING_VERIFIER_RESULTS");
    expect(output.verdicts.map((v) => [v.item.id, v.output.id, v.verdict])).toEqual([
      ["F1", "F1", "VERIFIED"],
      ["F2", "F2", "FALSE"],
      ["F3", "F3", "UNVERIFIABLE"],
      ["F4", "F4", "VERIFIED"],
      ["F5", "F5", "UNVERIFIABLE"],
      ["F6", "F6", "UNVERIFIABLE"],
    ]);
  });

  test("every VERIFIED or FALSE stands on a citation check the engine ran and that passed", () => {
    const checks = ofType(run.events, "check.finished").filter((c) => c.name === "citations");
    const byBranch = new Map(checks.map((c) => [c.branch!.index, c]));
    for (const index of [0, 1, 3]) {
      expect(byBranch.get(index)).toMatchObject({ passed: true, exit: 0 });
      expect(byBranch.get(index)!.stdout_tail).toMatch(/citation\(s\) hold/);
    }
    const qualifiers = ofType(run.events, "node.finished")
      .filter((e) => e.node === "verify_one" && e.status === "passed")
      .map((e) => [e.branch!.index, e.qualifier]);
    expect(qualifiers).toEqual(
      expect.arrayContaining([
        [0, "verified"],
        [1, "verified"],
        [3, "verified"],
      ]),
    );
  });

  test("F5: a confident VERIFIED with a citation that does not exist is caught by the check and recorded UNVERIFIABLE", () => {
    const check = ofType(run.events, "check.finished").find((c) => c.branch?.index === 4)!;
    expect(check).toMatchObject({ name: "citations", passed: false, exit: 1 });
    expect(check.stderr_tail).toContain("src/cache.js has 22 lines; cited line 40");
    const node = ofType(run.events, "node.finished").find((e) => e.node === "verify_one" && e.branch?.index === 4)!;
    expect(node).toMatchObject({ status: "failed", cause: "check_failed", recovered: true });
    const branch = ofType(run.events, "branch.finished").find((b) => b.branch.index === 4)!;
    expect(branch).toMatchObject({ status: "failed", verdict: "UNVERIFIABLE", recovered: true });
  });

  test("F6: the sitting overran its turns cap (9 of 8): an ERROR, never a FAIL, and the overrun is reported", () => {
    const overrun = ofType(run.events, "cap.overrun").find((o) => o.branch?.index === 5)!;
    expect(overrun).toMatchObject({ scope: "node", cap: "turns", limit: 8, actual: 9 });
    const node = ofType(run.events, "node.finished").find((e) => e.node === "verify_one" && e.branch?.index === 5)!;
    expect(node).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "turns", turns: 9 });
  });

  test("F4: a contract violation is re-asked once with the reason quoted, and the second answer stands", () => {
    const retry = ofType(run.events, "node.retrying").find((r) => r.branch?.index === 3)!;
    expect(retry).toMatchObject({ cause: "output_invalid", attempt: 1 });
    expect(retry.reason).toContain("output is not JSON");
    const started = ofType(run.events, "node.started").filter((e) => e.node === "verify_one" && e.branch?.index === 3);
    expect(started.map((e) => e.attempt)).toEqual([1, 2]);
    expect(started[1]!.prompt).toContain("Your previous attempt (attempt 1) did not pass");
  });

  test("the parse-fault fallback is not used when parsing succeeds; run cost is the sum of the sittings", () => {
    const fault = ofType(run.events, "node.finished").find((e) => e.node === "parse_fault")!;
    expect(fault).toMatchObject({ status: "skipped", cause: "fallback_unused" });
    const costs = ofType(run.events, "node.finished")
      .filter((e) => e.cost_usd !== null && e.node !== "verify_each")
      .reduce((s, e) => s + e.cost_usd!, 0);
    expect(finished(run.events).cost_usd).toBeCloseTo(costs, 6);
  });
});

describe("the demo in plain mode (what `npm run demo` prints in a pipe)", () => {
  test("per-branch verdicts, the failed check with its tail, and the overrun are all on screen", () => {
    const plain = vouch(ARGS, {});
    expect(plain.exitCode).toBe(0);
    const out = plain.stdout;
    for (const [id, verdict] of [
      ["F1", "VERIFIED"],
      ["F2", "FALSE"],
      ["F3", "UNVERIFIABLE"],
      ["F4", "VERIFIED"],
      ["F5", "UNVERIFIABLE"],
      ["F6", "UNVERIFIABLE"],
    ]) {
      expect(out).toMatch(new RegExp(`${id}\\s+${verdict}`));
    }
    expect(out).toContain("check citations failed");
    expect(out).toContain("cited line 40");
    expect(out).toContain("turns 9/8");
    expect(out).toMatch(/run passed · exit 0/);
    expect(plain.stdout.split("\n").every((l) => !l.includes("\u001b["))).toBe(true); // a pipe gets no colour
  });

  test("the sample repository is left as it was: replay edits nothing", () => {
    const status = Bun.spawnSync(["git", "status", "--porcelain", SAMPLE_REPO], { stdout: "pipe" }).stdout.toString();
    expect(status).toBe("");
  });
});
