// The shipped `vouch plan` demo (graphs/plan.replay, examples/sample-repo/vouch.checks.yaml),
// replayed offline through dist/vouch: the planner's first answer pre-approves Bash
// and writes its own check command, both refused and quoted back; the second is
// written as a planned graph and run with --yes, the sample project's checks for real.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { GRAPHS, sampleRepoCopy, vouch } from "./run-shipped.ts";

beforeAll(() => {
  ensureBinary();
}, 60_000);

export const PLAN_DEMO = (planFile: string) => [
  "plan",
  "Make the cache honour ttlMs and prove it",
  "--checks",
  "vouch.checks.yaml",
  "--harness",
  "replay",
  "--replay-dir",
  join(GRAPHS, "plan.replay"),
  "-o",
  planFile,
  "--run",
  "--yes",
];

test("vouch plan, replayed: refused answer quoted back, the second written, shown and run", () => {
  const repo = sampleRepoCopy(); // the plan's agent works in a worktree (ADR 0047)
  const r = vouch(PLAN_DEMO("plan.yaml"), { cwd: repo });
  expect(r.exitCode, r.stderr).toBe(0);
  // Attempt 1 was refused for both back doors, with places.
  expect(r.stdout).toMatch(/plan\.yaml:\d+:\d+: tool Bash is refused in a planned graph/);
  expect(r.stdout).toMatch(/plan\.yaml:\d+:\d+: run: commands are refused in a planned graph/);
  expect(r.stdout).toContain("↻ plan attempt 1 check_failed");
  // What was shown before the run: the graph, every agent's reach, the budget, the dry run.
  expect(r.stdout).toContain("graph cache-ttl (2 nodes)");
  expect(r.stdout).toContain(
    "fix: replay, tools Read, Glob, Grep, Edit, permission_mode acceptEdits, folder ., in a worktree protecting scripts/**",
  );
  expect(r.stdout).toContain("total budget: $2.00 (the run's cap)");
  expect(r.stdout).toContain("dry run of cache-ttl");
  // The plan ran: its fix node judged by the library's three checks.
  expect(r.stdout).toMatch(/✓ fix passed verified/);
  const plan = readFileSync(join(repo, "plan.yaml"), "utf8");
  expect(plan).toContain("origin: planned\nchecks_from: [ ./vouch.checks.yaml ]\n");
  const runs = JSON.parse(vouch(["runs", "--json"], { home: r.home }).stdout) as { id: string; graph: string; status: string }[];
  expect(runs.map((x) => `${x.graph}:${x.status}`)).toEqual(["cache-ttl:passed", "vouch-plan:passed"]);
  const show = JSON.parse(vouch(["show", "last", "--json"], { home: r.home }).stdout) as {
    nodes: { node: string; attempts: { checks: { name: string; passed: boolean }[] }[] }[];
  };
  expect(show.nodes.find((n) => n.node === "fix")!.attempts[0]!.checks.map((c) => `${c.name}:${c.passed}`)).toEqual([
    "build:true",
    "tests:true",
    "fmt:true",
  ]);
  // The planner ran read-only (claude's settings, replay plays claude recordings), from a
  // graph file kept in the ledger home so its run can be shown and resumed like any other.
  const planner = readFileSync(join(r.home, "planner", `${runs[1]!.id}.yaml`), "utf8");
  expect(statSync(join(r.home, "planner", `${runs[1]!.id}.yaml`)).mode & 0o777).toBe(0o600);
  expect(statSync(join(r.home, "planner")).mode & 0o777).toBe(0o700);
  expect(planner).toContain("tools: [ Read, Glob, Grep ]");
  expect(planner).toContain("permission_mode: dontAsk");
  expect(planner).toContain("retry: { max: 1, on: [ check_failed ] }");
});
