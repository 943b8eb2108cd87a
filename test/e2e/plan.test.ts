// `vouch plan` through dist/vouch with the command harness: the "model" is a
// script that answers from a queue of files (answer.1, answer.2, ...) and keeps
// every prompt it was given, so a test can see what was quoted back.
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { BINARY, cleanEnv, ensureBinary, runsOf, SAMPLE_REPO, STACK_LINE, tempDir, vouch, type TempDir } from "./helpers.ts";
import { exitedWith, TMUX, TmuxScreen } from "./tmux.ts";
import { commitFolder } from "../workspace/git-repo.ts";

beforeAll(() => {
  ensureBinary();
}, 180_000);

let dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs) d.cleanup();
  dirs = [];
});

const MODEL = `#!/bin/sh
# Answers with answer.N for the Nth sitting (the last one again when they run out).
n=$(ls prompt.* 2>/dev/null | wc -l); n=$((n + 1))
cat > "prompt.$n"
f="answer.$n"; [ -f "$f" ] || f=$(ls answer.* | sort | tail -n 1)
cat "$f"
`;

const GOOD = `version: 1
name: cache-ttl
description: Make the cache honour ttlMs
nodes:
  fix:
    kind: agent
    prompt: Make TtlCache.get honour ttlMs.
    workspace: { mode: worktree }
    success: { checks: [build, tests] }
`;

/** A copy of the sample repository with the model script and its answers. */
function project(answers: string[]): { dir: string; home: string } {
  const t = tempDir("plan");
  dirs.push(t);
  const dir = join(t.path, "repo");
  cpSync(SAMPLE_REPO, dir, { recursive: true });
  writeFileSync(join(dir, "model.sh"), MODEL);
  chmodSync(join(dir, "model.sh"), 0o755);
  answers.forEach((a, i) => writeFileSync(join(dir, `answer.${i + 1}`), a));
  // A planned graph's agents work in worktrees (ADR 0047): the project is a repository.
  commitFolder(dir);
  return { dir, home: join(t.path, "home") };
}

const GOAL = "Make the cache honour ttlMs and prove it";
async function plan(p: { dir: string; home: string }, extra: string[] = []) {
  return vouch(["plan", GOAL, "--checks", "vouch.checks.yaml", "--harness", "command", "-o", "plans/plan.yaml", ...extra], {
    home: p.home,
    cwd: p.dir,
    env: { VOUCH_COMMAND: "./model.sh" },
  });
}
const prompt = (p: { dir: string }, n: number) => readFileSync(join(p.dir, `prompt.${n}`), "utf8");
const written = (p: { dir: string }) => readFileSync(join(p.dir, "plans", "plan.yaml"), "utf8");

describe("vouch plan (command harness)", () => {
  test("an answer with run: is refused, the reason is quoted back, and the second attempt is used", async () => {
    const p = project([GOOD.replace("kind: agent\n    prompt: Make TtlCache.get honour ttlMs.", "kind: script\n    run: rm -rf ~"), GOOD]);
    const r = await plan(p);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.code).toBe(0);
    // The first prompt carries the language (generated from the schema) and the library.
    const first = prompt(p, 1);
    expect(first).toContain(GOAL);
    expect(first).toContain('"checks_from"'); // the JSON Schema `vouch schema` prints
    expect(first).toContain("- tests: every source file under src/ exports something");
    // The second is told what was wrong, with the place.
    const second = prompt(p, 2);
    expect(second).toContain("Your previous attempt (attempt 1) did not pass");
    expect(second).toMatch(/plan\.yaml:\d+:\d+: run: commands are refused in a planned graph/);
    expect(existsSync(join(p.dir, "prompt.3"))).toBe(false);
    // The written plan is the second answer, planned, naming the library relative to itself.
    const text = written(p);
    expect(text).toContain("origin: planned");
    expect(text).toContain("checks_from: [ ../vouch.checks.yaml ]");
    expect(text).not.toContain("rm -rf");
    // The plan validates as written, from anywhere.
    expect((await vouch(["validate", join(p.dir, "plans", "plan.yaml")], { home: p.home })).code).toBe(0);
    // It showed the graph, the agents and the budget.
    expect(r.stdout).toContain("graph cache-ttl (1 node)");
    expect(r.stdout).toMatch(
      /fix: command, the harness's default tools, permission_mode default, folder \., in a worktree protecting scripts\/\*\*/,
    );
    expect(r.stdout).toContain("total budget: not bounded");
    // The planner's sittings are in the ledger like any run's.
    const runs = await runsOf(p.home);
    expect(runs).toHaveLength(1);
    const show = JSON.parse((await vouch(["show", runs[0]!.id, "--json"], { home: p.home })).stdout) as {
      run: { graph: string };
      nodes: { node: string; attempts: unknown[] }[];
    };
    expect(show.run.graph).toBe("vouch-plan");
    expect(show.nodes.find((n) => n.node === "plan")!.attempts).toHaveLength(2);
  });

  test("an answer that says origin: user, or nothing, comes out planned", async () => {
    for (const answer of [GOOD, GOOD.replace("name: cache-ttl", "name: cache-ttl\norigin: user")]) {
      const p = project(["```yaml\n" + answer + "```\nThat is the graph."]);
      const r = await plan(p);
      expect(r.code).toBe(0);
      const text = written(p);
      expect(text).toMatch(/^origin: planned$/m);
      expect(text).not.toContain("origin: user");
      expect(text).not.toContain("```");
    }
  });

  test("tools [Bash] and cwd / are refused with their places; still failing after --attempts, exit 2 and nothing written", async () => {
    const bad = GOOD.replace("    prompt:", "    tools: [Read, Bash]\n    cwd: /\n    prompt:");
    const p = project([bad]);
    const r = await plan(p, ["--attempts", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plan\.yaml:\d+:\d+: tool Bash is refused in a planned graph \(origin: planned\): it runs commands/);
    expect(r.stderr).toMatch(
      /plan\.yaml:\d+:\d+: cwd "\/" is refused in a planned graph \(origin: planned\): not a path relative to the folder the run starts in/,
    );
    expect(r.stderr).toContain("after 3 attempts the planner's graph is still not valid");
    expect(existsSync(join(p.dir, "prompt.3"))).toBe(true);
    expect(existsSync(join(p.dir, "prompt.4"))).toBe(false);
    expect(existsSync(join(p.dir, "plans", "plan.yaml"))).toBe(false);
    // The planner's run resumes like any run: its graph file is kept in the ledger home, unchanged.
    const resumed = await vouch(["resume", "last"], { home: p.home, cwd: p.dir, env: { VOUCH_COMMAND: "./model.sh" } });
    expect(resumed.stderr).not.toContain("changed since");
    expect(resumed.code).toBe(1);
  });

  test("--attempts 1 asks once", async () => {
    const p = project(["not: a graph\n"]);
    const r = await plan(p, ["--attempts", "1"]);
    expect(r.code).toBe(2);
    expect(existsSync(join(p.dir, "prompt.2"))).toBe(false);
    expect(r.stderr).toContain("after 1 attempt the planner's graph is still not valid");
  });

  test("a good answer naming library checks is written and runs with --run --yes: the library's checks run", async () => {
    const p = project([GOOD]);
    writeFileSync(join(p.dir, "answer.2"), "done"); // the planned agent's sitting
    const r = await plan(p, ["--run", "--yes"]);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/check build passed|✓ fix passed/);
    const runs = await runsOf(p.home);
    expect(runs.map((x) => x.status)).toEqual(["passed", "passed"]);
    const planned = JSON.parse((await vouch(["show", runs[0]!.id, "--json"], { home: p.home })).stdout) as {
      run: { graph: string };
      nodes: { node: string; attempts: { checks: { name: string; passed: boolean }[] }[] }[];
    };
    expect(planned.run.graph).toBe("cache-ttl");
    expect(planned.nodes[0]!.attempts[0]!.checks.map((c) => `${c.name}:${c.passed}`)).toEqual(["build:true", "tests:true"]);
  });

  test("--run without --yes and no terminal to ask on is a usage error before any sitting", async () => {
    const p = project([GOOD]);
    const r = await plan(p, ["--run"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("add --yes");
    expect(existsSync(join(p.dir, "prompt.1"))).toBe(false);
  });

  test("usage: no --checks, no goal, a bad --attempts, a library with problems", async () => {
    const p = project([GOOD]);
    const env = { VOUCH_COMMAND: "./model.sh" };
    expect((await vouch(["plan", GOAL], { home: p.home, cwd: p.dir, env })).stderr).toContain("plan needs --checks FILE");
    expect((await vouch(["plan", "--checks", "vouch.checks.yaml"], { home: p.home, cwd: p.dir, env })).code).toBe(2);
    expect((await plan(p, ["--attempts", "0"])).stderr).toContain("--attempts takes a whole number greater than zero");
    writeFileSync(join(p.dir, "vouch.checks.yaml"), 'checks:\n  t: { run: "echo {{ inputs.x }}" }\n');
    const bad = await plan(p);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/vouch\.checks\.yaml:2:\d+: a template in a run: command is refused/);
    expect(existsSync(join(p.dir, "prompt.1"))).toBe(false);
    expect(existsSync(p.home), "a usage error leaves no ledger behind").toBe(false);
  });
});

describe.skipIf(!TMUX)("--run on a terminal asks first", () => {
  const screens: TmuxScreen[] = [];
  afterEach(() => {
    for (const s of screens.splice(0)) s.kill();
  });

  test.each([
    ["n", 0, 1],
    ["y", 0, 2],
  ])("answering %s: exit %i, %i run(s) in the ledger", async (key, code, runs) => {
    const p = project([GOOD, "done"]);
    const screen = new TmuxScreen(p.dir);
    screens.push(screen);
    const args = [BINARY, "plan", GOAL, "--checks", "vouch.checks.yaml", "--harness", "command", "-o", "plan.yaml", "--run"];
    screen.start(
      ["sh", "-c", `cd '${p.dir}' && exec "$@"`, "sh", ...args],
      cleanEnv({ home: p.home, env: { VOUCH_COMMAND: "./model.sh" } }),
    );
    await screen.waitFor("the question", (s) => s.some((l) => l.includes("Run this plan now? [y/N]")));
    screen.keys(key, "Enter");
    if (key === "y") {
      // The plan runs in the live view, which keeps its last frame until q.
      await screen.waitFor("the plan's run to end", (s) => s.some((l) => l.includes("cache-ttl  PASSED · exit 0")), 20_000);
      screen.keys("q");
    }
    const done = await screen.waitFor("the exit", (s) => exitedWith(s) !== null, 20_000);
    expect(exitedWith(done)).toBe(code);
    expect(await runsOf(p.home)).toHaveLength(runs);
  });
});

describe("--checks GRAPH: the plan takes the graph's checks_from files", () => {
  test("the files are named relative to the plan, the graph's own checks are not, and they reach the prompt", async () => {
    const p = project([GOOD]);
    writeFileSync(
      join(p.dir, "asker.yaml"),
      'version: 1\nname: asker\nchecks_from: [./vouch.checks.yaml]\nchecks:\n  own: { run: "true", description: not for plans }\nnodes:\n  a: { kind: end }\n',
    );
    const r = await vouch(["plan", GOAL, "--checks", "asker.yaml", "--harness", "command", "-o", "plans/plan.yaml"], {
      home: p.home,
      cwd: p.dir,
      env: { VOUCH_COMMAND: "./model.sh" },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(written(p)).toContain("checks_from: [ ../vouch.checks.yaml ]");
    expect(prompt(p, 1)).toContain("- tests: every source file under src/ exports something");
    expect(prompt(p, 1)).not.toContain("not for plans");
    writeFileSync(join(p.dir, "bare.yaml"), "version: 1\nname: bare\nnodes:\n  a: { kind: end }\n");
    const none = await vouch(["plan", GOAL, "--checks", "bare.yaml", "--harness", "command"], { home: p.home, cwd: p.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("this graph names no checks files (checks_from)");
  });
});
