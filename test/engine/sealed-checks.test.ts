// Sealed checks in the engine (ADR 0043, 0044) with a fake git: each check runs on
// a fresh tree built from the commit vouch recorded — never the live worktree —
// with the protected paths, the graph's files and the scripts its command runs
// from the base; a witnessed check runs first on the base and must fail there.
import { describe, expect, test } from "vitest";
import type { CheckSpec, CommandContext, TreeLink } from "../../src/engine/ports.ts";
import { LedgerError } from "../../src/engine/errors.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { FAKE_BASE, FAKE_ROOT, FakeGit } from "./helpers/fake-git.ts";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";

const TREES = `${FAKE_ROOT}/.vouch/trees/run-test`;

/** A check that reads its tree: passes when `path` holds `text` there. */
function reading(git: FakeGit, path: string, text: string) {
  return (_s: CheckSpec, ctx: CommandContext) => {
    const files = git.trees.get(ctx.checkTree!.dir)!.files;
    return files.get(path) === text ? {} : { passed: false, exit: 1 };
  };
}

function graph(checks: string, extra = ""): string {
  return `
version: 1
name: sealed
nodes:
  impl:
    kind: agent
    prompt: implement
    workspace: { mode: worktree, protect: ["test/**"] }
    success: { checks: [${checks}] }
${extra}`;
}

describe("the tree a check sees", () => {
  test("the attempt's commit, not what was written in the worktree after vouch recorded it", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner((s, ctx) => {
      // Something the sitting left running rewrites the worktree while the checks run.
      git.edit(`${FAKE_ROOT}/.vouch/worktrees/run-test/impl`, "src/a.ts", "rewritten later");
      return reading(git, "src/a.ts", "the work")(s, ctx);
    });
    const r = await run(graph('{ name: t, run: "true" }'), {
      git,
      commands,
      agents: (a) => (git.edit(a.workspace!, "src/a.ts", "the work"), {}),
    });
    expect(finishedOf(r.events, "impl")).toMatchObject({ status: "passed", qualifier: "verified" });
    expect(ofType(r.events, "check.finished")[0]).toMatchObject({ tree: "commit", passed: true });
  });

  test("a script the check runs is the base's, though the sitting rewrote it (and it is not protected)", async () => {
    const git = new FakeGit();
    git.commits.get(FAKE_BASE)!.set("scripts/test", "the user's test");
    const commands = new FakeCommandRunner(reading(git, "scripts/test", "the user's test"));
    const r = await run(graph('{ name: t, run: "./scripts/test" }'), {
      git,
      commands,
      agents: (a) => (git.edit(a.workspace!, "scripts/test", "exit 0"), {}),
    });
    expect(finishedOf(r.events, "impl").status).toBe("passed");
    // The node's own commit keeps what the sitting did: only the check's tree differs.
    expect(git.commits.get(finishedOf(r.events, "impl").workspace!.commit)!.get("scripts/test")).toBe("exit 0");
  });

  test("from_result keeps the work's version of a path the command names", async () => {
    const git = new FakeGit();
    git.commits.get(FAKE_BASE)!.set("package.json", "base scripts");
    const commands = new FakeCommandRunner(reading(git, "package.json", "the agent's scripts"));
    const r = await run(graph('{ name: t, run: "npm test", from_result: ["package.json"] }'), {
      git,
      commands,
      agents: (a) => (git.edit(a.workspace!, "package.json", "the agent's scripts"), {}),
    });
    expect(finishedOf(r.events, "impl").status).toBe("passed");
  });

  test("the checkout's git-ignored dependency folders are linked into every tree, as deps says", async () => {
    const git = new FakeGit();
    git.ignored = ["node_modules", "pkg/node_modules", "dist", ".venv"];
    const commands = new FakeCommandRunner();
    await run(graph('{ name: a, run: "true" }, { name: b, run: "true" }'), { git, commands });
    expect(commands.checks.map((c) => c.ctx.checkTree!.links.map((l) => `${l.path} -> ${l.target}`))).toEqual([
      [`node_modules -> ${FAKE_ROOT}/node_modules`, `pkg/node_modules -> ${FAKE_ROOT}/pkg/node_modules`, `.venv -> ${FAKE_ROOT}/.venv`],
      [`node_modules -> ${FAKE_ROOT}/node_modules`, `pkg/node_modules -> ${FAKE_ROOT}/pkg/node_modules`, `.venv -> ${FAKE_ROOT}/.venv`],
    ]);
    // Each check got a fresh copy of its own.
    expect(git.treesMade.map((t) => t.dir)).toEqual([`${TREES}/impl/1-1`, `${TREES}/impl/1-2`]);
    const only = new FakeGit();
    only.ignored = ["node_modules", "dist"];
    const c2 = new FakeCommandRunner();
    await run(graph('{ name: a, run: "true" }').replace('protect: ["test/**"]', 'deps: ["dist"]'), { git: only, commands: c2 });
    expect(c2.checks[0]!.ctx.checkTree!.links.map((l) => l.path)).toEqual(["dist"]);
  });

  test("a tree that cannot be made is a check that could not run: error, never a pass", async () => {
    const git = new FakeGit();
    git.checkoutTree = async () => {
      throw new Error("git checkout-index failed (exit 128): disk full");
    };
    const r = await run(graph('{ name: t, run: "true" }'), { git });
    const f = finishedOf(r.events, "impl");
    expect([f.status, f.cause]).toEqual(["error", "harness_error"]);
    expect(f.error).toContain("its tree could not be made");
  });
});

describe("sealed when the node is", () => {
  test("a sealed node's checks are each confined to their own tree (network off unless the check says so); an unsealed node's are not", async () => {
    const checks = '{ name: a, run: "true" }, { name: b, run: "true", network: true }';
    const git = new FakeGit();
    const commands = new FakeCommandRunner();
    await run(graph(checks), { git, commands, options: { sandboxAvailability: { available: true } } });
    expect(commands.checks.map((c) => c.ctx.seal)).toEqual([
      { tree: `${TREES}/impl/1-1`, repository: FAKE_ROOT, network: false },
      { tree: `${TREES}/impl/1-2`, repository: FAKE_ROOT, network: true },
    ]);
    const off = new FakeCommandRunner();
    await run(graph(checks).replace("workspace:", "sandbox: off\n    workspace:"), {
      git: new FakeGit(),
      commands: off,
      options: { sandboxAvailability: { available: true } },
    });
    expect(off.checks.map((c) => c.ctx.seal)).toEqual([undefined, undefined]);
    // Not sealed, the check still runs on its tree, never the live worktree.
    expect(off.checks.map((c) => c.ctx.cwd)).toEqual([`${TREES}/impl/1-1`, `${TREES}/impl/1-2`]);
  });
});

describe("witnesses (fails_on_base)", () => {
  const fixed = (git: FakeGit) => reading(git, "src/a.ts", "fixed");

  test("fails on the base, passes on the result: passed verified, witnessed fail→pass", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner(fixed(git));
    const r = await run(graph('{ name: t, run: "sh test/t.sh", witness: fails_on_base }'), {
      git,
      commands,
      agents: (a) => (git.edit(a.workspace!, "src/a.ts", "fixed"), {}),
    });
    const f = finishedOf(r.events, "impl");
    expect(f).toMatchObject({ status: "passed", qualifier: "verified", witnessed: ["t"] });
    expect(ofType(r.events, "check.finished").map((c) => [c.tree, c.passed])).toEqual([
      ["base", false],
      ["commit", true],
    ]);
    expect(git.treesMade.map((t) => t.commit)[0]).toBe(FAKE_BASE);
  });

  test("passes on the base: failed vacuous_check, the result run skipped, and the retry quotes it", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner();
    const r = await run(graph('{ name: t, run: "sh test/t.sh", witness: fails_on_base }', "    retry: { max: 1 }"), { git, commands });
    const f = finishedOf(r.events, "impl");
    expect([f.status, f.cause, f.attempt]).toEqual(["failed", "vacuous_check", 2]);
    expect(f.error).toContain("passed on the base too");
    expect(ofType(r.events, "check.finished").map((c) => c.tree)).toEqual(["base", "base"]);
    expect(r.agents.prompts("impl")[1]).toContain("vacuous_check");
  });

  test("with from_result, the witness runs on the base with the work's tests: a test the agent wrote must fail on the old code", async () => {
    const git = new FakeGit();
    const seen: string[] = [];
    const commands = new FakeCommandRunner((_s, ctx) => {
      const files = git.trees.get(ctx.checkTree!.dir)!.files;
      seen.push(`${files.get("spec/new.test")} on ${files.get("src/a.ts")}`);
      return files.get("src/a.ts") === "fixed" ? {} : { passed: false, exit: 1 };
    });
    const r = await run(graph('{ name: t, run: "true", witness: fails_on_base, from_result: ["spec/**"] }'), {
      git,
      commands,
      agents: (a) => {
        git.edit(a.workspace!, "spec/new.test", "the agent's test");
        git.edit(a.workspace!, "src/a.ts", "fixed");
        return {};
      },
    });
    expect(seen).toEqual(["the agent's test on a", "the agent's test on fixed"]);
    expect(finishedOf(r.events, "impl")).toMatchObject({ status: "passed", witnessed: ["t"] });
  });

  test("a check that failed on the base and fails on the result is check_failed, not vacuous", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner(() => ({ passed: false, exit: 1 }));
    const r = await run(graph('{ name: t, run: "true", witness: fails_on_base }'), { git, commands });
    expect(finishedOf(r.events, "impl")).toMatchObject({ status: "failed", cause: "check_failed" });
  });

  test("a node without a worktree has no base to witness on: the check could not run (error)", async () => {
    const commands = new FakeCommandRunner();
    const r = await run(
      graph('{ name: t, run: "true", witness: fails_on_base }').replace('workspace: { mode: worktree, protect: ["test/**"] }', "cwd: ."),
      {
        commands,
      },
    );
    const f = finishedOf(r.events, "impl");
    expect([f.status, f.cause]).toEqual(["error", "harness_error"]);
    expect(commands.checks).toEqual([]);
  });
});

describe("trees written ahead and how many (ADR 0073)", () => {
  const sealed = { sandboxAvailability: { available: true as const } };
  /** Lets the engine's pending work run: up to `turns` turns of the event loop until `done`. */
  async function until(done: () => boolean, turns = 200): Promise<boolean> {
    for (let i = 0; i < turns && !done(); i++) await new Promise((r) => setImmediate(r));
    return done();
  }

  test("sealed, the next check's tree is written while a check runs; one tree per check run, all removed, one composition per tree", async () => {
    const git = new FakeGit();
    let aheadWhileFirstRan = false;
    const commands = new FakeCommandRunner(async (s) => {
      if (s.name === "a") aheadWhileFirstRan = await until(() => git.treesMade.length === 2);
      return {};
    });
    const checks = '{ name: a, run: "true" }, { name: b, run: "./scripts/b" }, { name: c, run: "./scripts/c" }';
    const r = await run(graph(checks), { git, commands, options: sealed });
    expect(finishedOf(r.events, "impl").status).toBe("passed");
    expect(aheadWhileFirstRan).toBe(true);
    // Three checks, three trees, each its own folder, in the checks' order; none left.
    expect(git.treesMade.map((t) => t.dir)).toEqual([`${TREES}/impl/1-1`, `${TREES}/impl/1-2`, `${TREES}/impl/1-3`]);
    expect(commands.checks.map((c) => c.ctx.checkTree!.dir)).toEqual(git.treesMade.map((t) => t.dir));
    expect([...git.trees.keys()]).toEqual([]);
  });

  test("unsealed, nothing is written ahead: a check could write the next one's tree", async () => {
    const git = new FakeGit();
    let made = -1;
    const commands = new FakeCommandRunner(async (s) => {
      if (s.name === "a") {
        await until(() => false, 50);
        made = git.treesMade.length;
      }
      return {};
    });
    await run(graph('{ name: a, run: "true" }, { name: b, run: "true" }'), { git, commands });
    expect(made).toBe(1);
    expect(git.treesMade).toHaveLength(2);
  });

  test("a tree written ahead and never opened (the witness passed on the base) is removed", async () => {
    const git = new FakeGit();
    const r = await run(graph('{ name: t, run: "sh test/t.sh", witness: fails_on_base }'), {
      git,
      commands: new FakeCommandRunner(),
      options: sealed,
    });
    expect(finishedOf(r.events, "impl").cause).toBe("vacuous_check");
    expect(ofType(r.events, "check.finished").map((c) => c.tree)).toEqual(["base"]);
    expect(git.treesMade.map((t) => t.dir)).toEqual([`${TREES}/impl/1-1-base`, `${TREES}/impl/1-2`]);
    expect([...git.trees.keys()]).toEqual([]);
  });

  // Review of ADR 0073: a Ctrl-C while a check's tree was being written still started the next
  // check's tree, and the cancelled run waited for it. Test first: 2 trees made before the guard.
  test("cancelled while a check's tree is written: the next check's tree is not started", async () => {
    const ac = new AbortController();
    class AbortingGit extends FakeGit {
      override async checkoutTree(root: string, commit: string, name: string, links: readonly TreeLink[]) {
        const dir = await super.checkoutTree(root, commit, name, links);
        if (this.treesMade.length === 1) ac.abort();
        return dir;
      }
    }
    const git = new AbortingGit();
    const checks = '{ name: a, run: "true" }, { name: b, run: "./scripts/b" }';
    await run(graph(checks), { git, commands: new FakeCommandRunner(), options: { ...sealed, signal: ac.signal } });
    expect(git.treesMade).toHaveLength(1);
    expect([...git.trees.keys()]).toEqual([]);
  });

  test("cancelled while a check runs: the tree written ahead for the next check is removed", async () => {
    const git = new FakeGit();
    const ac = new AbortController();
    const commands = new FakeCommandRunner(async (s) => {
      if (s.name === "a") {
        await until(() => git.treesMade.length === 2);
        ac.abort();
        return { passed: false, exit: 1 };
      }
      return {};
    });
    const checks = '{ name: a, run: "true" }, { name: b, run: "./scripts/b" }, { name: c, run: "./scripts/c" }';
    await run(graph(checks), { git, commands, options: { ...sealed, signal: ac.signal } });
    expect(git.treesMade).toHaveLength(2);
    expect([...git.trees.keys()]).toEqual([]);
  });

  // The trees are disposed in a finally: an error the engine does not catch still removes them.
  test("a fatal error in a check: the tree written ahead for the next one is removed", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner(async (s) => {
      if (s.name === "a") {
        await until(() => git.treesMade.length === 2);
        throw new LedgerError("the disk is full");
      }
      return {};
    });
    const checks = '{ name: a, run: "true" }, { name: b, run: "./scripts/b" }';
    await expect(run(graph(checks), { git, commands, options: sealed })).rejects.toThrow(LedgerError);
    expect(git.treesMade).toHaveLength(2);
    expect([...git.trees.keys()]).toEqual([]);
  });

  test("a rerun gets a fresh tree of its own, not the one written for the next check", async () => {
    const git = new FakeGit();
    let firstRuns = 0;
    const commands = new FakeCommandRunner((s) => (s.name === "a" && ++firstRuns === 1 ? { passed: false, exit: 1 } : {}));
    await run(graph('{ name: a, run: "true", reruns: 1 }, { name: b, run: "./scripts/b" }'), { git, commands, options: sealed });
    const dirs = commands.checks.map((c) => `${c.spec.name} ${c.ctx.checkTree!.dir}`);
    expect(dirs).toEqual([`a ${TREES}/impl/1-1`, `a ${TREES}/impl/1-3`, `b ${TREES}/impl/1-2`]);
    expect(new Set(git.treesMade.map((t) => t.dir)).size).toBe(3);
    expect([...git.trees.keys()]).toEqual([]);
  });
});

describe("the tree a check's record names (tree_id, ADR 0073)", () => {
  test("the tree the check ran on: the commit's with the base's script, not the commit's own; the commit's when nothing came from the base", async () => {
    const git = new FakeGit();
    git.commits.get(FAKE_BASE)!.set("scripts/test", "the user's test");
    const r = await run(graph('{ name: script, run: "./scripts/test" }, { name: plain, run: "true" }'), {
      git,
      commands: new FakeCommandRunner(),
      agents: (a) => (git.edit(a.workspace!, "scripts/test", "exit 0"), {}),
    });
    const commit = finishedOf(r.events, "impl").workspace!.commit;
    const [script, plain] = ofType(r.events, "check.finished");
    const ran = git.treesMade.map((t) => t.commit);
    expect(script!.tree_id).toBe(await git.treeId(FAKE_ROOT, ran[0]!));
    expect(script!.tree_id).not.toBe(await git.treeId(FAKE_ROOT, commit));
    expect(git.commits.get(ran[0]!)!.get("scripts/test")).toBe("the user's test");
    expect(plain!.tree_id).toBe(await git.treeId(FAKE_ROOT, commit));
  });
});
