// The other shipped graphs end to end through the real binary: step-runner (with
// a feedback round, and its failure path), parallel-review, checks-only.
import { appendFileSync, copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { finished, GRAPHS, ofType, SAMPLE_REPO, sampleCopy, sampleRepoCopy, vouch } from "./run-shipped.ts";
import { git } from "../workspace/git-repo.ts";

beforeAll(() => {
  ensureBinary();
}, 60_000);

const TASK = "task=Make TtlCache.get honour ttlMs";

describe("step-runner", () => {
  test("implement → checks → review asks for a fix → one feedback round → clean → handoff", () => {
    const repo = sampleRepoCopy();
    const r = vouch(["run", join(GRAPHS, "step-runner.yaml"), "--harness", "replay", "-i", TASK, "--json"], { cwd: repo });
    expect(r.exitCode).toBe(0);
    // implement works in its own worktree; review continues from implement's commit, on its own branch.
    const ws = (node: string) =>
      ofType(r.events, "node.finished")
        .filter((e) => e.node === node)
        .map((e) => e.workspace!);
    expect(ws("implement").map((w) => w.path)).toEqual([1, 2].map(() => join(repo, ".vouch", "worktrees", r.events[0]!.run, "implement")));
    expect(ws("review").map((w) => w.base)).toEqual(ws("implement").map((w) => w.commit));
    // The second round's review started afresh; the first round's branch is kept as @1.
    expect(git(repo, "branch", "--list", "vouch/*", "--format=%(refname:short)").trim().split("\n").sort()).toEqual([
      `vouch/${r.events[0]!.run}/implement`,
      `vouch/${r.events[0]!.run}/review`,
      `vouch/${r.events[0]!.run}/review@1`,
    ]);
    expect(git(repo, "status", "--porcelain")).toBe("");

    const started = ofType(r.events, "node.started");
    expect(started.filter((e) => e.node === "implement").map((e) => e.round)).toEqual([1, 2]);
    expect(started.filter((e) => e.node === "review").map((e) => e.round)).toEqual([1, 2]);
    // The second implement sitting is told what the review found.
    expect(started.filter((e) => e.node === "implement")[1]!.prompt).toContain("delete the entry when it has expired");
    // Each round's implement is judged by the project's three checks, run for real.
    const checks = ofType(r.events, "check.finished").filter((c) => c.node === "implement");
    expect(checks.map((c) => `${c.name}:${c.passed}`)).toEqual([
      "build:true",
      "tests:true",
      "fmt:true",
      "build:true",
      "tests:true",
      "fmt:true",
    ]);
    expect(checks.find((c) => c.name === "build")!.stdout_tail).toContain("build ok: 3 files");
    const end = finished(r.events);
    expect(end.status).toBe("passed");
    expect(end.output).toMatchObject({ handoff: "STEP_RUNNER", status: "done", review: { decision: "clean" } });
    // vouch show keeps both rounds: each round's attempt, and the node's cost is both rounds' sum.
    const show = JSON.parse(vouch(["show", "last", "--json"], { home: r.home }).stdout) as {
      nodes: { node: string; cost_usd: number; attempts: { round: number; attempt: number; cost_usd: number }[] }[];
    };
    const implement = show.nodes.find((n) => n.node === "implement")!;
    expect(implement.attempts.map((a) => [a.round, a.attempt])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(implement.cost_usd).toBeCloseTo(0.1124 + 0.0876, 6);
    expect(vouch(["show", "last"], { home: r.home }).stdout).toMatch(/implement .*2 feedback rounds/);
    const skipped = ofType(r.events, "node.finished")
      .filter((e) => e.status === "skipped")
      .map((e) => `${e.node}:${e.cause}`);
    expect(skipped.sort()).toEqual([
      "gave_up:not_chosen",
      "implement_error:upstream_not_passed",
      "implement_failed:upstream_not_passed",
      "implement_stopped:fallback_unused",
      "review_failed:fallback_unused",
      "stop_critical:not_chosen",
    ]);
  });

  test("when the project's checks fail, implement is retried once, then the failure path ends the run failed (exit 1)", () => {
    const repo = sampleRepoCopy();
    appendFileSync(join(repo, "src", "slug.js"), "export const x = 1;   \n"); // trailing spaces: fmt-check lists the file
    git(repo, "commit", "--quiet", "-am", "a change the formatter rejects"); // a worktree holds what is committed
    const r = vouch(["run", join(GRAPHS, "step-runner.yaml"), "--harness", "replay", "-i", TASK, "--json"], { cwd: repo });
    expect(r.exitCode).toBe(1);
    const implement = ofType(r.events, "node.finished").filter((e) => e.node === "implement");
    expect(implement.at(-1)).toMatchObject({ status: "failed", cause: "check_failed", attempt: 2, fallback: "implement_stopped" });
    const fmt = ofType(r.events, "check.finished").filter((c) => c.name === "fmt");
    expect(fmt).toHaveLength(2);
    expect(fmt.every((c) => !c.passed && c.stdout_tail.includes("src/slug.js"))).toBe(true);
    expect(finished(r.events).output).toMatchObject({ handoff: "STEP_RUNNER", status: "failed", stage: "implement" });
    expect(ofType(r.events, "node.finished").find((e) => e.node === "review")).toMatchObject({
      status: "skipped",
      cause: "upstream_not_passed",
    });
  });

  test("when implement stops at a cap (no verdict), the run ends error (exit 3), never failed: ERROR is never FAIL", () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-step-cap-"));
    // A recorded sitting that hit its turns cap (error_max_turns), played for implement.
    copyFileSync(join(GRAPHS, "finding-verifier.replay", "verify_one.5.jsonl"), join(dir, "implement.jsonl"));
    const r = vouch(["run", join(GRAPHS, "step-runner.yaml"), "--harness", "replay", "--replay-dir", dir, "-i", TASK, "--json"], {
      cwd: sampleRepoCopy(),
    });
    expect(ofType(r.events, "node.finished").find((e) => e.node === "implement")).toMatchObject({ status: "error", cause: "cap_stop" });
    expect(finished(r.events)).toMatchObject({ status: "error", exit_code: 3 });
    expect(finished(r.events).output).toMatchObject({ handoff: "STEP_RUNNER", status: "error", stage: "implement" });
    expect(r.exitCode).toBe(3);
  });
});

describe("parallel-review", () => {
  test("one reviewer per changed line of input, verdicts in input order, files stamped from the item", () => {
    const r = vouch(
      [
        "run",
        join(GRAPHS, "parallel-review.yaml"),
        "--harness",
        "replay",
        "-i",
        "files=src/cache.js\nsrc/duration.js\n\nsrc/slug.js\n",
        "--json",
      ],
      { cwd: SAMPLE_REPO },
    );
    expect(r.exitCode).toBe(0);
    const branches = ofType(r.events, "branch.finished").sort((a, b) => a.branch.index - b.branch.index);
    expect(branches.map((b) => b.verdict)).toEqual(["ISSUES", "CLEAN", "ISSUES"]);
    const reviews = (finished(r.events).output as { reviews: { output: { file: string } }[] }).reviews;
    expect(reviews.map((x) => x.output.file)).toEqual(["src/cache.js", "src/duration.js", "src/slug.js"]);
    expect(ofType(r.events, "run.started")[0]!.caps.budget_usd).toBe(3);
  });
});

describe("checks-only (no agent, no model)", () => {
  test("the sample project passes: every check ran and the node is verified", () => {
    const r = vouch(["run", join(GRAPHS, "checks-only.yaml"), "--json"], { cwd: SAMPLE_REPO });
    expect(r.exitCode).toBe(0);
    expect(ofType(r.events, "check.finished").map((c) => `${c.name}:${c.passed}`)).toEqual(["build:true", "tests:true", "fmt:true"]);
    expect(ofType(r.events, "node.finished")[0]).toMatchObject({ status: "passed", qualifier: "verified" });
  });

  test("a folder without the project's check scripts: the checks could not run, an ERROR (exit 3), never a FAIL", () => {
    const empty = sampleCopy();
    Bun.spawnSync(["rm", "-rf", join(empty, "scripts")]);
    const r = vouch(["run", join(GRAPHS, "checks-only.yaml"), "-i", `project_dir=${empty}`, "--json"]);
    expect(r.exitCode).toBe(3);
    const checks = ofType(r.events, "check.finished");
    expect(checks.map((c) => `${c.name}:${c.exit}`)).toEqual(["build:127", "tests:127", "fmt:127"]);
    expect(ofType(r.events, "node.finished")[0]).toMatchObject({ status: "error", cause: "harness_error" });
    expect(ofType(r.events, "node.finished")[0]!.error).toContain("3 of 3 checks could not run");
  });

  test("a broken project: every check still runs and every failure is reported (exit 1)", () => {
    const repo = sampleCopy();
    writeFileSync(join(repo, "src", "empty-export.js"), "const notExported = 1;\t\n");
    const r = vouch(["run", join(GRAPHS, "checks-only.yaml"), "-i", `project_dir=${repo}`, "--json"]);
    expect(r.exitCode).toBe(1);
    const checks = ofType(r.events, "check.finished");
    expect(checks.map((c) => `${c.name}:${c.passed}`)).toEqual(["build:true", "tests:false", "fmt:false"]);
    expect(checks[1]!.stdout_tail).toContain("FAIL src/empty-export.js exports nothing");
    expect(checks[2]!.stdout_tail).toContain("src/empty-export.js");
    expect(checks[2]!.reason).toMatch(/expected no output/);
    const node = ofType(r.events, "node.finished")[0]!;
    expect(node).toMatchObject({ status: "failed", cause: "check_failed" });
    expect(node.error).toContain("2 of 3 checks failed");
  });
});
