// `vouch init` through the real binary, as a user runs it: in a fixture project
// of each kind (a real git repository in a temp folder), then `vouch validate`
// and `vouch run --dry-run` on what it wrote; the first run of each check; the
// refusals (an existing file without a terminal, a link, no repository); and the
// starter graph run for real with the command harness, an agent that does the
// task and one that edits the protected package.json.
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { BINARY, cleanEnv, ensureBinary, vouch } from "../e2e/helpers.ts";
import { git } from "../workspace/git-repo.ts";
import { FIXTURES, project, type Files, type Project } from "./fixtures.ts";

beforeAll(() => void ensureBinary(), 180_000);

const made: Project[] = [];
afterEach(() => {
  for (const p of made.splice(0)) p.cleanup();
});

function repo(files: Files, commit = true): Project {
  const p = project(files, commit);
  made.push(p);
  return p;
}
const init = (p: Project, args: string[], env: Record<string, string> = {}) =>
  vouch(["init", ...args], { home: join(p.root, ".vouch"), cwd: p.root, env });
/** The stub CLIs first on PATH: a dry run refuses an agent CLI that is not installed (issue 27
 *  item 18), and this machine need not have them; what is planned is the question here. */
const CLIS = { PATH: `${join(import.meta.dirname, "..", "stubs", "harness")}:${process.env.PATH ?? "/usr/bin:/bin"}` };
const read = (p: Project, file: string) => readFileSync(join(p.root, file), "utf8");
/** Whether a process is there and not a zombie (a zombie has ended; only its entry waits to be reaped). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("a fixture project of each kind", () => {
  test.each(Object.keys(FIXTURES))("%s: init --yes writes two files vouch validate and vouch run --dry-run accept", async (kind) => {
    const p = repo(FIXTURES[kind]!);
    const r = await init(p, ["--yes", "--no-run-checks"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("wrote vouch.checks.yaml");
    expect(r.stdout).toContain("wrote vouch.graph.yaml (agent implement on claude in a worktree, then merge integrate)");
    const home = join(p.root, ".vouch");
    const valid = await vouch(["validate", "vouch.graph.yaml", "vouch.checks.yaml"], { home, cwd: p.root });
    expect(valid.stdout).toBe("");
    expect(valid.stderr).toContain("2 files valid");
    expect(valid.code).toBe(0);
    const dry = await vouch(["run", "vouch.graph.yaml", "-i", "task=add a line", "--dry-run"], { home, cwd: p.root, env: CLIS });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/implement\s+agent\s+claude\s+turns 40, budget \$3\.00, wall 30m/);
    expect(dry.stdout).toMatch(/integrate\s+merge/);
    const listed = await vouch(["checks", "--json"], { home, cwd: p.root });
    expect(listed.code).toBe(0);
    const names = (JSON.parse(listed.stdout) as { name: string }[]).map((c) => c.name);
    expect(read(p, "vouch.graph.yaml")).toContain(`success: { checks: [${names.join(", ")}] }`);
  });

  test("the checks each kind gets", async () => {
    const expected: Record<string, string[]> = {
      node: ["tests", "lint", "build"],
      python: ["tests", "lint", "fmt"],
      go: ["tests", "vet", "fmt"],
      rust: ["tests", "clippy", "fmt"],
      make: ["tests", "lint"],
      deno: ["tests", "lint", "fmt"],
      workflows: ["run_the_tests"],
      empty: ["tests"],
    };
    for (const [kind, names] of Object.entries(expected)) {
      const p = repo(FIXTURES[kind]!);
      expect((await init(p, ["--yes", "--no-run-checks"])).code).toBe(0);
      const listed = await vouch(["checks", "--json"], { home: join(p.root, ".vouch"), cwd: p.root });
      expect([kind, (JSON.parse(listed.stdout) as { name: string }[]).map((c) => c.name)]).toEqual([kind, names]);
    }
  });

  test("every harness: --harness NAME gives a graph the dry run accepts on that harness", async () => {
    const p = repo(FIXTURES.node!);
    mkdirSync(join(p.root, "replays"));
    for (const h of ["claude", "codex", "gemini", "acp", "replay", "command"]) {
      expect((await init(p, ["--yes", "--no-run-checks", "--harness", h])).code).toBe(0);
      const dry = await vouch(["run", "vouch.graph.yaml", "-i", "task=x", "--dry-run", "--replay-dir", "replays"], {
        home: join(p.root, ".vouch"),
        cwd: p.root,
        env: { VOUCH_COMMAND: "/bin/cat", ...CLIS },
      });
      expect([h, dry.code, dry.stdout]).toEqual([h, 0, expect.stringMatching(new RegExp(`implement\\s+agent\\s+${h}`))]);
    }
  });

  test("a folder inside a repository: the protected paths are the repository's paths", async () => {
    const p = repo({ "packages/web/package.json": '{"scripts":{"test":"node -e 0"}}', "packages/web/test/a.test.js": "" });
    const sub = { ...p, root: join(p.root, "packages", "web") };
    expect((await init(sub, ["--yes", "--no-run-checks"])).code).toBe(0);
    const graph = read(sub, "vouch.graph.yaml");
    expect(graph).toContain("- packages/web/package.json");
    expect(graph).toContain("- packages/web/test/**");
    expect((await vouch(["validate", "vouch.graph.yaml"], { home: join(p.root, ".vouch"), cwd: sub.root })).code).toBe(0);
  });
});

describe("each check run once", () => {
  test("node: which pass and which already fail, with the failure's last lines", async () => {
    const p = repo(FIXTURES.node!);
    const r = await init(p, ["--yes"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("  tests  npm run test\n    ✓ passed (");
    expect(r.stdout).toMatch(
      / {2}lint {3}npm run lint\n {4}✗ failed: exit 1, expected 0 \((?:\d+(?:h|m|s|ms))+\)\n(.*\n)*? {6}│ src\/a\.js: 1 problem\n/,
    );
    expect(r.stdout).toContain("2 of 3 checks passed on the current tree");
    expect(r.stdout).toContain("1 check already fails before any agent runs (lint):");
    expect(r.stdout).toContain('vouch run vouch.graph.yaml -i task="..."');
  });

  test("a toolchain that is not installed: could not run (go not found), nothing started for it", async () => {
    const p = repo(FIXTURES.go!);
    // PATH holds git and nothing else: no go, no gofmt, whatever this machine has.
    const bin = join(p.root, ".bin");
    mkdirSync(bin);
    symlinkSync(Bun.which("git")!, join(bin, "git"));
    const r = await init(p, ["--yes"], { PATH: bin });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("  tests  go test ./...\n    ! could not run (go not found)");
    expect(r.stdout).toContain("  vet    go vet ./...\n    ! could not run (go not found)");
    expect(r.stdout).toContain("  fmt    gofmt -l .\n    ! could not run (gofmt not found)");
    expect(r.stdout).toContain("3 checks could not run (tests, vet, fmt): no evidence either way;");
  });

  test("make: its targets run (or make is named as missing)", async () => {
    const p = repo(FIXTURES.make!);
    const r = await init(p, ["--yes"]);
    expect(r.code).toBe(0);
    if (Bun.which("make")) {
      expect(r.stdout).toContain("  tests  make test\n    ✓ passed");
      expect(r.stdout).toMatch(/ {2}lint {3}make lint\n {4}✗ failed: exit 2, expected 0/);
    } else expect(r.stdout).toContain("could not run (make not found)");
  });

  test("Ctrl-C while a check runs: its process group is stopped, the files stay written, exit 130", async () => {
    const p = repo({
      "package.json": JSON.stringify({ scripts: { test: "echo $$ > check.pid; exec sleep 300" } }),
      "package-lock.json": "{}",
    });
    const child = Bun.spawn([BINARY, "init", "--yes"], {
      cwd: p.root,
      env: cleanEnv({ home: join(p.root, ".vouch") }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const pidFile = join(p.root, "check.pid");
    const deadline = Date.now() + 30_000;
    while (!(existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n")) && Date.now() < deadline) await Bun.sleep(20);
    const checkPid = Number(readFileSync(pidFile, "utf8"));
    child.kill("SIGINT");
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(code).toBe(130);
    expect(stderr).toContain("vouch: interrupted; the files are written, the remaining checks did not run");
    expect(existsSync(join(p.root, "vouch.graph.yaml"))).toBe(true);
    expect(alive(checkPid)).toBe(false);
  });

  test("nothing found: the placeholder check fails, saying what to write", async () => {
    const p = repo(FIXTURES.empty!);
    const r = await init(p, ["--yes"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("found: no test command");
    expect(r.stdout).toContain("│ no test command yet: write this project's tests into the tests check of vouch.checks.yaml");
  });
});

describe("what init refuses, and --dry-run", () => {
  test("--dry-run prints both files and writes nothing (no file, no ledger, the checkout as it was)", async () => {
    const p = repo(FIXTURES.node!);
    const before = readdirSync(p.root).sort();
    const r = await init(p, ["--dry-run"]);
    expect(r.code).toBe(0);
    expect(readdirSync(p.root).sort()).toEqual(before);
    expect(git(p.root, "status", "--porcelain")).toBe("");
    expect(r.stderr).toContain("nothing written (--dry-run); no check was run");
    const [, checks, graph] = r.stdout.split(/^# --- (?:vouch\.checks\.yaml|vouch\.graph\.yaml) \(not written: --dry-run\) ---\n/m);
    expect((await init(p, ["--yes", "--no-run-checks"])).code).toBe(0);
    expect(checks).toBe(read(p, "vouch.checks.yaml"));
    expect(graph).toBe(read(p, "vouch.graph.yaml"));
  });

  test("an existing file without a terminal: refused (exit 2) naming --yes, the file untouched; --yes replaces it", async () => {
    const p = repo({ ...FIXTURES.node!, "vouch.checks.yaml": "checks: {}\n" });
    const r = await init(p, ["--no-run-checks"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "vouch: vouch.checks.yaml exists already; vouch init replaces it only when asked, and there is no terminal to ask on\n" +
        "hint: add --yes to replace it, or --dry-run to print what would be written\n",
    );
    expect(read(p, "vouch.checks.yaml")).toBe("checks: {}\n");
    expect(existsSync(join(p.root, "vouch.graph.yaml"))).toBe(false);
    expect((await init(p, ["--yes", "--no-run-checks"])).code).toBe(0);
    expect(read(p, "vouch.checks.yaml")).toContain("npm run test");
  });

  test("a file that is a link is never written through, even with --yes", async () => {
    const p = repo(FIXTURES.node!);
    writeFileSync(join(p.root, "elsewhere.txt"), "keep me\n");
    symlinkSync(join(p.root, "elsewhere.txt"), join(p.root, "vouch.graph.yaml"));
    const r = await init(p, ["--yes", "--no-run-checks"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("vouch: vouch.graph.yaml exists and is a symbolic link: vouch init replaces only a regular file");
    expect(read(p, "elsewhere.txt")).toBe("keep me\n");
    expect(existsSync(join(p.root, "vouch.checks.yaml"))).toBe(false);
  });

  test("no git repository, or one without a commit: exit 2 with what to do", async () => {
    const bare = repo(FIXTURES.node!, false);
    const r = await init(bare, ["--yes"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is not in a git repository: the starter graph's agent works in a git worktree of its own");
    expect(r.stderr).toContain('hint: make it one first: git init && git add -A && git commit -m "initial commit"');
    git(bare.root, "init", "--quiet");
    const empty = await init(bare, ["--yes"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("has no commit yet");
    expect(readdirSync(bare.root)).not.toContain("vouch.checks.yaml");
  });

  test("usage mistakes: an unknown harness (did you mean), an argument, an unknown flag", async () => {
    const p = repo(FIXTURES.node!);
    const h = await init(p, ["--harness", "claud"]);
    expect(h.code).toBe(2);
    expect(h.stderr).toContain(
      'vouch: --harness "claud" is not a harness (did you mean claude?); the harnesses: claude, codex, gemini, acp, replay, command',
    );
    expect((await init(p, ["src"])).stderr).toContain('init takes no arguments (got "src")');
    expect((await init(p, ["--force"])).code).toBe(2);
    expect(readdirSync(p.root)).not.toContain("vouch.checks.yaml");
  });
});

describe("the starter graph, run for real with the command harness", () => {
  /** A project whose tests pass once src.txt says done; its test tool is in node_modules (not committed). */
  function doneProject(): Project {
    const p = repo({
      "package.json": '{"scripts":{"test":"mytest"}}',
      "package-lock.json": "{}",
      ".gitignore": "node_modules\n",
      "src.txt": "start\n",
    });
    mkdirSync(join(p.root, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(p.root, "node_modules", ".bin", "mytest"), "#!/bin/sh\ngrep -q done src.txt\n");
    chmodSync(join(p.root, "node_modules", ".bin", "mytest"), 0o755);
    return p;
  }
  function agent(p: Project, body: string): string {
    const file = join(p.root, "..", `${p.root.split("/").at(-1)}-agent.sh`);
    writeFileSync(file, `#!/bin/sh\ncat >/dev/null\n${body}\n`);
    chmodSync(file, 0o755);
    made.push({ root: file, cleanup: () => rmSync(file, { force: true }) });
    return file;
  }

  test("the agent does the task: its branch passes the checks, and the merge puts it on vouch/<run>/merged", async () => {
    const p = doneProject();
    expect((await init(p, ["--yes", "--harness", "command"])).stdout).toMatch(/tests {2}npm run test\n {4}✗ failed: exit 1/);
    git(p.root, "add", "--all");
    git(p.root, "commit", "--quiet", "-m", "vouch");
    const home = join(p.root, ".vouch");
    const env = { VOUCH_COMMAND: agent(p, "echo done > src.txt; echo wrote done") };
    const r = await vouch(["run", "vouch.graph.yaml", "-i", "task=write done into src.txt", "--plain"], { home, cwd: p.root, env });
    expect(r.stdout).toMatch(/✓ implement passed verified/);
    expect(r.stdout).toMatch(/✓ integrate passed verified/);
    expect(r.code).toBe(0);
    const merged = git(p.root, "branch", "--list", "vouch/*/merged").trim();
    expect(git(p.root, "show", `${merged}:src.txt`)).toBe("done\n");
    expect(read(p, "src.txt")).toBe("start\n"); // the checkout is untouched
  });

  test("an agent that edits the protected package.json fails tampered, retried, and the run fails", async () => {
    const p = doneProject();
    expect((await init(p, ["--yes", "--no-run-checks", "--harness", "command"])).code).toBe(0);
    git(p.root, "add", "--all");
    git(p.root, "commit", "--quiet", "-m", "vouch");
    const env = { VOUCH_COMMAND: agent(p, `echo '{"scripts":{"test":"true"}}' > package.json; echo made the tests pass`) };
    const r = await vouch(["run", "vouch.graph.yaml", "-i", "task=x", "--json"], { home: join(p.root, ".vouch"), cwd: p.root, env });
    expect(r.code).toBe(1);
    const finished = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; node?: string; status?: string; cause?: string; attempt?: number })
      .filter((e) => e.type === "node.finished" && e.node === "implement");
    expect(finished.map((e) => [e.attempt, e.status, e.cause])).toEqual([[3, "failed", "tampered"]]);
    expect(read(p, "package.json")).toBe('{"scripts":{"test":"mytest"}}');
  });
});
