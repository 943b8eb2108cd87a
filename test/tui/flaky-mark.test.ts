// A check whose history calls it flaky (run.started's flaky_checks, ADR 0067) is marked in
// the live view: beside its outcome under the node, and in the node's details; a check of
// the same name but another command is not.
import { describe, expect, test } from "vitest";
import { lineText } from "../../src/tui/lines.ts";
import { reduceAll, selectDetails, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder } from "./helpers/event-builder.ts";

function run(digest: string): RunRecorder {
  const r = new RunRecorder();
  r.started([{ id: "fix", kind: "agent" }], {
    flaky_checks: [{ name: "tests", command_digest: "sha256:aa", flaky_runs: 3, runs: 10 }],
  });
  r.emit({ type: "node.started", node: "fix", kind: "agent", attempt: 1, harness: "claude" });
  const check = {
    type: "check.finished" as const,
    node: "fix",
    attempt: 1,
    expect: "exit_zero",
    signal: null,
    timed_out: false,
    duration_ms: 5,
  };
  const out = { stdout_tail: "", stderr_tail: "", truncated: false };
  r.emit({ ...check, ...out, name: "tests", passed: false, exit: 1, reason: "exit 1", command_digest: digest });
  r.emit({ ...check, ...out, name: "lint", passed: true, exit: 0, command_digest: "sha256:bb" });
  return r;
}

describe("the live view marks a flaky check", () => {
  test("under the node and in its details, by name and command", () => {
    const state = reduceAll(run("sha256:aa").events);
    const rows = selectFrame(state, { width: 120, height: 30, now: 0 }).lines.map(lineText);
    expect(rows.find((l) => l.includes("✗ tests"))).toContain("⚠ flaky in 3 of the last 10 runs");
    expect(rows.find((l) => l.includes("lint")) ?? "").not.toContain("flaky");
    const details = selectDetails(state, "fix", { now: 0, width: 120 }).map(lineText);
    expect(details.find((l) => l.includes("✗ tests"))).toContain("⚠ flaky in 3 of the last 10 runs");
  });

  test("another command under the same name is not marked", () => {
    const rows = selectFrame(reduceAll(run("sha256:cc").events), { width: 120, height: 30, now: 0 }).lines.map(lineText);
    expect(rows.find((l) => l.includes("✗ tests"))).not.toContain("flaky");
  });
});
