// Worktrees across a kill -9 and a resume, and `vouch clean`, through the real
// binary on a real repository (issue 15, ADR 0020).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { startVouch, tempProject, type Project } from "../resume/vouch-process.ts";
import { fingerprint, git } from "../workspace/git-repo.ts";
import { ensureBinary, parseNdjson, STACK_LINE, vouch } from "./helpers.ts";
import { fixture, type Fixture } from "./workspace-fixture.ts";

const GRAPH = `version: 1
name: resume-worktrees
nodes:
  first:
    kind: agent
    harness: command
    env: [RENDEZVOUS]
    prompt: write first
    workspace: { mode: worktree, keep: always }
  second:
    kind: agent
    harness: command
    env: [RENDEZVOUS]
    needs: [first]
    prompt: write second hold
    workspace: { from: first }
`;

let p: Project;
let fx: Fixture;
let graph: string;
let runId: string;
let before: ReturnType<typeof fingerprint>;
let firstCommit: string;
let resumed: ReturnType<typeof parseNdjson>;
let resumeCode: number;
const later = () => join(p.dir, "rendezvous-2");

beforeAll(async () => {
  ensureBinary();
  p = tempProject("vouch-ws-resume-");
  fx = fixture(p.dir);
  graph = p.write("g.yaml", GRAPH);
  before = fingerprint(fx.repo);
  const env = { VOUCH_COMMAND: fx.agent, RENDEZVOUS: fx.rendezvous };
  const s = startVouch(p, ["run", graph, "--json"], env, fx.repo);
  await s.waitFor(/"type":"node\.started"[^\n]*"node":"second"/);
  // Wait for the sitting itself: its file is written before it holds.
  for (let i = 0; i < 400 && !existsSync(join(fx.rendezvous, "second")); i++) await Bun.sleep(25);
  s.proc.kill("SIGKILL");
  await s.done;
  runId = parseNdjson(s.printed().stdout.split("\n").slice(0, 1).join("\n") + "\n")[0]!.run;
  firstCommit = git(fx.repo, "rev-parse", `vouch/${runId}/first`).trim();
  writeFileSync(join(fx.repo, ".vouch", "worktrees", runId, "first", "marker"), "the same folder\n");
  mkdirSync(later());
  writeFileSync(join(later(), "release"), "");
  const r = await vouch(["resume", runId, "--json"], { home: p.home, cwd: fx.repo, env: { VOUCH_COMMAND: fx.agent, RENDEZVOUS: later() } });
  resumeCode = r.code;
  resumed = parseNdjson(r.stdout);
  // Anything of the killed session still holding lets go.
  writeFileSync(join(fx.rendezvous, "release"), "");
}, 120_000);
afterAll(() => p?.cleanup());

describe("kill -9, then resume", () => {
  test("the resumed run passes; the passed node did not run again, its worktree and branch were reused", () => {
    expect(resumeCode).toBe(0);
    const started = resumed.filter((e) => e.type === "node.started").map((e) => (e.type === "node.started" ? e.node : ""));
    expect(started).toEqual(["second"]);
    expect(git(fx.repo, "rev-parse", `vouch/${runId}/first`).trim()).toBe(firstCommit);
    // keep: always, and never recreated: the file put in it between the sessions is still there.
    expect(readFileSync(join(fx.repo, ".vouch", "worktrees", runId, "first", "marker"), "utf8")).toBe("the same folder\n");
  });

  test("the node that ran again got a fresh worktree from its upstream's commit; the killed try's branch is kept as @1", () => {
    const second = resumed.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === "second")!;
    expect(second.status).toBe("passed");
    expect(second.workspace!.base).toBe(firstCommit);
    expect(second.workspace!.branch).toBe(`vouch/${runId}/second`);
    expect(git(fx.repo, "show", `${second.workspace!.commit}:first.txt`)).toBe("first\n");
    expect(git(fx.repo, "branch", "--list", `vouch/${runId}/*`, "--format=%(refname:short)").trim().split("\n").sort()).toEqual(
      [`vouch/${runId}/first`, `vouch/${runId}/second`, `vouch/${runId}/second@1`].sort(),
    );
    // The killed sitting had written its file: it is on the kept branch, committed when it was set aside.
    expect(git(fx.repo, "show", `vouch/${runId}/second@1:second.txt`)).toBe("second\n");
    // on_failure: the passed second's worktree is gone.
    expect(existsSync(second.workspace!.path)).toBe(false);
  });

  test("the user's checkout is unchanged by both sessions", () => {
    expect(fingerprint(fx.repo)).toEqual(before);
  });
});

describe("vouch clean", () => {
  let other: string;
  beforeAll(async () => {
    // A second run whose failed node keeps its worktree.
    const failing = p.write(
      "fail.yaml",
      `version: 1\nname: fails\nnodes:\n  broken:\n    kind: agent\n    harness: command\n    env: [RENDEZVOUS]\n    prompt: write broken\n    workspace: { mode: worktree }\n    success: { checks: [{ name: never, run: "false" }] }\n`,
    );
    const r = await vouch(["run", failing, "--json"], {
      home: p.home,
      cwd: fx.repo,
      env: { VOUCH_COMMAND: fx.agent, RENDEZVOUS: later() },
    });
    expect(r.code).toBe(1);
    other = parseNdjson(r.stdout)[0]!.run;
    expect(existsSync(join(fx.repo, ".vouch", "worktrees", other, "broken"))).toBe(true);
  }, 60_000);

  test("clean RUN removes that run's worktrees and nothing else; the branches stay", async () => {
    // A check tree a killed session left (ADR 0043): vouch clean takes it too, and only that run's.
    const leftover = join(fx.repo, ".vouch", "trees", runId, "impl", "1-1");
    const others = join(fx.repo, ".vouch", "trees", other, "broken", "1-1");
    mkdirSync(leftover, { recursive: true });
    mkdirSync(others, { recursive: true });
    const r = await vouch(["clean", runId], { home: p.home, cwd: fx.repo });
    expect(existsSync(join(fx.repo, ".vouch", "trees", runId))).toBe(false);
    expect(existsSync(others)).toBe(true);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("removed 1 worktree of 1 run");
    expect(existsSync(join(fx.repo, ".vouch", "worktrees", runId))).toBe(false);
    expect(existsSync(join(fx.repo, ".vouch", "worktrees", other, "broken"))).toBe(true);
    expect(git(fx.repo, "branch", "--list", `vouch/${runId}/*`).trim().split("\n")).toHaveLength(3);
    expect(fingerprint(fx.repo)).toEqual(before);
  });

  test("--branches removes the run's branches (the kept @1 too), not another run's, not main", async () => {
    // A prefix of the run id (at least 17 characters) that the other run does not share: two
    // runs started in the same second share more (the CI run that failed here had such a pair).
    let n = 17;
    while (other.startsWith(runId.slice(0, n))) n++;
    const r = await vouch(["clean", runId.slice(0, n), "--branches"], { home: p.home, cwd: fx.repo });
    expect(r.code).toBe(0);
    expect(git(fx.repo, "branch", "--list", `vouch/${runId}/*`).trim()).toBe("");
    expect(git(fx.repo, "branch", "--list", `vouch/${other}/*`).trim()).not.toBe("");
    expect(git(fx.repo, "branch", "--list", "main").trim()).not.toBe("");
    expect(fingerprint(fx.repo)).toEqual(before);
  });

  test("clear errors: an unknown run, a hostile one, outside a repository; --help says what it does", async () => {
    const unknown = await vouch(["clean", "20990101-000000-000000"], { home: p.home, cwd: fx.repo });
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining('no worktrees or branches of run "20990101-000000-000000"'),
    ]);
    for (const bad of ["../x", "-rf", ".."]) {
      const r = await vouch(["clean", "--", bad], { home: p.home, cwd: fx.repo });
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(STACK_LINE);
    }
    const outside = await vouch(["clean"], { home: p.home, cwd: p.dir });
    expect([outside.code, outside.stderr]).toEqual([2, expect.stringContaining("is not in one")]);
    const help = await vouch(["clean", "--help"], { home: p.home, cwd: fx.repo });
    expect(help.stdout).toContain("Usage: vouch clean [RUN] [--branches]");
    expect(existsSync(join(fx.repo, ".vouch", "worktrees", other, "broken"))).toBe(true);
  });

  test("clean with no RUN removes every run's worktrees", async () => {
    const r = await vouch(["clean"], { home: p.home, cwd: fx.repo });
    expect(r.code).toBe(0);
    expect(existsSync(join(fx.repo, ".vouch", "worktrees", other))).toBe(false);
    expect(git(fx.repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });
});
