// What a planned graph may reach, through `vouch plan --run --yes` on the replay
// harness (issue 27 items 1 and 5; ADR 0047): the planner's answers are recorded
// sittings written here, the planned agent's edits a recorded sidecar.
//  - item 5: a planned agent with edit rights rewrites the script the user's library
//    check runs; the script is protected in its worktree, so the attempt is tampered,
//    the check never runs the rewritten script, and the run does not pass. A library
//    that does not say what its checks run is refused before any sitting.
//  - item 1: a planned merge's into must stay under vouch/<run>/; the plan summary
//    shown before approval names the branch each merge writes.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { GRAPHS, sampleRepoCopy, vouch } from "../shipped/run-shipped.ts";
import { git } from "../workspace/git-repo.ts";

beforeAll(() => {
  ensureBinary();
}, 60_000);

/** A recorded planner sitting whose answer is `yaml` (the shape of graphs/plan.replay/plan.a2.jsonl). */
function plannerSitting(yaml: string): string {
  const recorded = readFileSync(join(GRAPHS, "plan.replay", "plan.a2.jsonl"), "utf8")
    .trim()
    .split("\n");
  return `${recorded
    .map((line) => {
      const o = JSON.parse(line) as { type: string; message?: { content: { text: string }[] }; result?: string };
      if (o.type === "assistant") o.message!.content[0]!.text = yaml;
      if (o.type === "result") o.result = yaml;
      return JSON.stringify(o);
    })
    .join("\n")}\n`;
}

/** A replay folder: the planner's answers in order, and the planned fix node's sitting with its edits. */
function replayDir(answers: string[], fixEdits?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "vouch-plan-reach-"));
  answers.forEach((a, i) => writeFileSync(join(dir, `plan.a${i + 1}.jsonl`), plannerSitting(a)));
  cpSync(join(GRAPHS, "plan.replay", "fix.jsonl"), join(dir, "fix.jsonl"));
  if (fixEdits !== undefined) writeFileSync(join(dir, "fix.edits.json"), JSON.stringify(fixEdits));
  return dir;
}

const FIX = `version: 1
name: cache-ttl
defaults:
  harness: claude
  workspace: { mode: worktree }
caps: { budget_usd: 2, wall: 30m }
nodes:
  fix:
    kind: agent
    tools: [Read, Glob, Grep, Edit]
    permission_mode: acceptEdits
    prompt: Make TtlCache.get honour ttlMs.
    success: { checks: [build, tests, fmt] }
`;

function plan(repo: string, replay: string, extra: string[] = []) {
  const args = ["plan", "Make the cache honour ttlMs", "--checks", "vouch.checks.yaml", "--harness", "replay", "--replay-dir", replay];
  return vouch([...args, "-o", "plan.yaml", "--run", "--yes", ...extra], { cwd: repo });
}

describe("item 5: a planned agent with edit rights cannot rewrite what the user's checks run", () => {
  // Test first: on the old code the rewritten scripts/test ran as the tests check and passed (exit 0).
  test("the fix node rewrites scripts/test to exit 0: tampered, put back, the run fails; the check never ran the model's script", () => {
    const repo = sampleRepoCopy();
    const original = readFileSync(join(repo, "scripts", "test"), "utf8");
    const replay = replayDir([FIX], { edits: [{ path: "scripts/test", content: "#!/bin/sh\nexit 0\n", executable: true }] });
    const r = plan(repo, replay);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain("in a worktree protecting scripts/**");
    const runs = JSON.parse(vouch(["runs", "--json"], { home: r.home }).stdout) as { id: string; graph: string; status: string }[];
    expect(runs.map((x) => `${x.graph}:${x.status}`)).toEqual(["cache-ttl:failed", "vouch-plan:passed"]);
    const show = JSON.parse(vouch(["show", runs[0]!.id, "--json"], { home: r.home }).stdout) as {
      nodes: { node: string; status: string; cause: string; error: string; attempts: { checks: unknown[] }[] }[];
    };
    const fix = show.nodes.find((n) => n.node === "fix")!;
    expect(fix).toMatchObject({ status: "failed", cause: "tampered" });
    expect(fix.error).toContain("scripts/test");
    expect(fix.attempts.every((a) => a.checks.length === 0)).toBe(true);
    // The user's checkout is as it was.
    expect(readFileSync(join(repo, "scripts", "test"), "utf8")).toBe(original);
    expect(git(repo, "status", "--porcelain", "--", "scripts").trim()).toBe("");
  });

  test("a library that says nothing of what its checks run is refused before any sitting (exit 2)", () => {
    const repo = sampleRepoCopy();
    const lib = join(repo, "vouch.checks.yaml");
    writeFileSync(lib, readFileSync(lib, "utf8").replace(/^protect: .*\n/m, ""));
    const r = plan(repo, replayDir([FIX]));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("vouch.checks.yaml:1:1: checks file");
    expect(r.stderr).toContain("does not say which files its checks run (protect:)");
    expect(vouch(["runs", "--json"], { home: r.home }).stdout.trim()).toBe("[]");
  });

  test("an answer whose agent works outside a worktree is refused and quoted back", () => {
    const repo = sampleRepoCopy();
    const shared = FIX.replace("  workspace: { mode: worktree }\n", "");
    const r = plan(repo, replayDir([shared, FIX]));
    expect(r.stdout).toMatch(/plan\.yaml:\d+:\d+: agent node fix of a planned graph \(origin: planned\) must work in a worktree/);
    expect(r.exitCode, r.stderr).toBe(0);
  });
});

describe("item 1: a planned merge writes only under vouch/<run>/, and the summary says which branch", () => {
  const MERGE = (into: string) =>
    `${FIX}  integrate:\n    kind: merge\n    needs: [fix]\n    from: [fix]\n    into: ${into}\n    success: { checks: [tests] }\n`;
  test("into: main is refused and quoted back; the second answer's branch is shown before the run and made; main untouched", () => {
    const repo = sampleRepoCopy();
    const main = git(repo, "rev-parse", "main").trim();
    const replay = replayDir([MERGE("main"), MERGE('"vouch/{{ run.id }}/merged"')], {
      edits: [{ path: "src/notes.js", content: "export const note = 1;\n" }],
    });
    const r = plan(repo, replay);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /plan\.yaml:\d+:\d+: into "main" is refused in a planned graph \(origin: planned\): it must start with "vouch\/\{\{ run\.id \}\}\/"/,
    );
    expect(r.stdout).toContain(
      "merges (the branch each writes, before you approve):\n  integrate: into vouch/{{ run.id }}/merged, from fix, base HEAD",
    );
    const runs = JSON.parse(vouch(["runs", "--json"], { home: r.home }).stdout) as { id: string }[];
    const branches = git(repo, "branch", "--list", "--format=%(refname:short)").split("\n");
    expect(branches).toContain(`vouch/${runs[0]!.id}/merged`);
    expect(branches).not.toContain("main@1");
    expect(git(repo, "rev-parse", "main").trim()).toBe(main);
    expect(git(repo, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
  });
});
