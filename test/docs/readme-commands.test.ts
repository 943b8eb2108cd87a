// Every command line of the README's `sh` blocks is run by a test, or says why it
// cannot be (a package not yet published). This file runs the first screen's as
// written: the demo (package.json's demo script; its output holds every line the
// README shows of it), then `runs`, `show`, `report`; the three steps on a fresh
// repository (`vouch init`, `vouch run`, `vouch report`); the Claude Code
// commands, with the stub claude of test/stubs/harness first on PATH (no model is
// called: what is held is that each command as written gets past the command
// line and starts the agent); the CI block as one script. The rest name the test
// that runs them and a line of it.
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BINARY, ensureBinary, ROOT } from "../graph/binary.ts";
import { git } from "../workspace/git-repo.ts";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const STUBS = join(ROOT, "test", "stubs", "harness");

type Where = { here: string } | { by: string; shows: string } | { notRun: string };
const RELEASE = "test/release/release.test.ts";
const CLAUDE = { here: "with the stub claude" };
const CI_BLOCK = { here: "the CI block, as one script" };

/** Each README command and what runs it. */
const COMMANDS: Record<string, Where> = {
  "npm install && npm run demo": { here: "the demo" },
  "vouch init": { here: "the three steps" },
  'vouch run vouch.graph.yaml -i task="Make the parser accept empty lines"': { here: "the three steps" },
  "vouch report last -o report.html": { here: "the three steps" },
  "npm install && npm test": { by: ".ci/run", shows: "npm install\nnpm run clis\nnpm test" },
  "npm run clis && npm test": { by: ".ci/run", shows: "npm run clis\nnpm test" },
  "./dist/vouch runs": { here: "after the demo" },
  "./dist/vouch show last": { here: "after the demo" },
  "./dist/vouch report last -o report.html": { here: "after the demo" },
  "npm i -g vouch-cli": { by: RELEASE, shows: "installGlobal([wrapperPack(), platformPack(" },
  "npx vouch-cli --help": {
    notRun:
      "no release is on the npm registry yet (the README says so); the launcher it would run is installed from the packed tarballs and run by test/release/release.test.ts",
  },
  "version=0.1.0 target=linux-x64": { by: RELEASE, shows: "the README's archive commands" },
  'grep " vouch-$version-$target.tar.gz\\$" SHA256SUMS | sha256sum -c -': { by: RELEASE, shows: "the README's archive commands" },
  "tar -xzf vouch-$version-$target.tar.gz": { by: RELEASE, shows: "the README's archive commands" },
  "sudo install vouch-$version-$target/vouch /usr/local/bin/vouch": { by: RELEASE, shows: "the README's archive commands" },
  "vouch run graphs/finding-verifier.yaml -i findings=@review.md -i project_dir=.": CLAUDE,
  'vouch run graphs/step-runner.yaml -i task="Make TtlCache.get honour ttlMs" -i project_dir=.': CLAUDE,
  'vouch run graphs/parallel-review.yaml -i files="$(git diff --name-only main)" --budget 3': CLAUDE,
  "vouch run graphs/checks-only.yaml --json": CLAUDE,
  "vouch run graphs/checks-only.yaml --json > events.ndjson; code=$?": CI_BLOCK,
  'jq -r \'select(.type=="check.finished" and .passed==false and (.could_not_run|not)) | "\\(.name): \\(.reason)\\n\\(.stdout_tail)"\' events.ndjson':
    CI_BLOCK,
  "jq -c 'select(.type==\"run.finished\") | {status, exit_code, cost_usd, counts}' events.ndjson": CI_BLOCK,
  "exit $code": CI_BLOCK,
  "vouch watch RUN": { by: "test/e2e/remote-control.test.ts", shows: '[BINARY, "watch", id, "--json"]' },
  "vouch cancel RUN": { by: "test/e2e/remote-control.test.ts", shows: 'v(["cancel", id])' },
  "vouch approve RUN NODE": { by: "test/e2e/remote-control.test.ts", shows: 'v(["approve", id, "gate"' },
};

/** A line without its trailing comment (a `#` after a space, outside quotes). */
function withoutComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && i > 0 && /\s/.test(line[i - 1]!)) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** The README's fenced blocks in order: the info string after the opening fence, and the body. */
function fences(readme: string): { info: string; body: string }[] {
  const out: { info: string; body: string }[] = [];
  let open: { info: string; lines: string[] } | null = null;
  for (const line of readme.split("\n")) {
    if (open === null) {
      const m = /^```(\S*)$/.exec(line);
      if (m) open = { info: m[1]!, lines: [] };
    } else if (line === "```") {
      out.push({ info: open.info, body: open.lines.join("\n") });
      open = null;
    } else open.lines.push(line);
  }
  return out;
}

/** The README's `sh` blocks, each as its command lines. */
export function shBlocks(readme: string): string[][] {
  return fences(readme)
    .filter((f) => f.info === "sh")
    .map((f) =>
      f.body
        .replace(/\\\n\s*/g, " ")
        .split("\n")
        .map(withoutComment)
        .filter((l) => l.trim() !== ""),
    );
}

let sandbox: string;
let bin: string;
beforeAll(() => {
  ensureBinary();
  sandbox = mkdtempSync(join(tmpdir(), "vouch-readme-commands-"));
  bin = join(sandbox, "bin");
  mkdirSync(bin);
  symlinkSync(BINARY, join(bin, "vouch"));
}, 120_000);
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

interface Shell {
  code: number;
  out: string;
  err: string;
}
/** One command line (or script) through sh, with `vouch` on PATH and the stub agent CLIs after it. */
function sh(script: string, cwd: string, home: string): Shell {
  const env = { PATH: `${bin}:${STUBS}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: sandbox, TZ: "UTC", VOUCH_HOME: home };
  const r = Bun.spawnSync(["sh", "-c", script], { cwd, env, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode ?? -1, out: r.stdout.toString(), err: r.stderr.toString() };
}

const commit = (dir: string, message: string) => {
  git(dir, "add", "--all");
  git(dir, "commit", "--quiet", "-m", message);
};

describe("every README command is run", () => {
  test("each command of an sh block is in the table above, and each entry of it is in the README", () => {
    const lines = shBlocks(README).flat();
    expect(lines.filter((l) => !(l in COMMANDS))).toEqual([]);
    expect(Object.keys(COMMANDS).filter((c) => !lines.includes(c))).toEqual([]);
    for (const [command, where] of Object.entries(COMMANDS)) {
      if ("by" in where) expect(readFileSync(join(ROOT, where.by), "utf8"), `${command}: ${where.by}`).toContain(where.shows);
    }
  });

  test("npm run demo: the README's lines of its output are in it; then runs, show last, report last", () => {
    const demo = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { demo: string } }).scripts.demo;
    expect(demo.startsWith("bun run build.ts && ")).toBe(true); // the build is ensureBinary's
    const dir = join(sandbox, "checkout");
    mkdirSync(dir);
    for (const part of ["dist", "graphs", "examples"]) symlinkSync(join(ROOT, part), join(dir, part));
    const home = join(sandbox, "demo-home");
    const ran = sh(demo.slice("bun run build.ts && ".length), dir, home);
    expect(ran.code, ran.err).toBe(0);
    const shown = fences(README)
      .find((f) => f.info === "")!
      .body.split("\n");
    expect(shown).toHaveLength(12);
    const out = ran.out.split("\n");
    for (const line of shown) {
      const re = new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/…/g, ".*")}`);
      expect(
        out.some((l) => re.test(l)),
        line,
      ).toBe(true);
    }
    expect(existsSync(join(dir, "demo-report.html"))).toBe(true);
    expect(sh("./dist/vouch runs", dir, home).out).toMatch(/finding-verifier\s+passed/);
    expect(sh("./dist/vouch show last", dir, home).out).toContain("verify_each[4].verify_one");
    const report = sh("./dist/vouch report last -o report.html", dir, home);
    expect(report.err).toContain("wrote the html report to");
    expect(readFileSync(join(dir, "report.html"), "utf8")).toContain("<h2>Timeline</h2>");
  }, 120_000);

  test("the three steps in a fresh repository (the stub claude as the agent): init, run, report", () => {
    const repo = join(sandbox, "project");
    mkdirSync(join(repo, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(repo, "package.json"), '{"scripts":{"test":"mytest"}}');
    writeFileSync(join(repo, "package-lock.json"), "{}");
    writeFileSync(join(repo, ".gitignore"), "node_modules\nreport.html\n");
    writeFileSync(join(repo, "src.txt"), "done\n");
    writeFileSync(join(repo, "node_modules", ".bin", "mytest"), "#!/bin/sh\ngrep -q done src.txt\n");
    chmodSync(join(repo, "node_modules", ".bin", "mytest"), 0o755);
    git(repo, "init", "--quiet", "--initial-branch=main");
    commit(repo, "a project");
    const home = join(repo, ".vouch");
    const [init, run, report] = shBlocks(README)[1]!;
    const i = sh(init!, repo, home);
    expect(i.code, i.err).toBe(0);
    expect(i.out).toContain("wrote vouch.checks.yaml (1 check: tests)");
    expect(i.out).toContain("1 of 1 check passed on the current tree");
    commit(repo, "vouch: checks and a starter graph"); // "commit both", as init says
    const r = sh(run!, repo, home);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/✓ implement passed verified/);
    expect(r.out).toMatch(/✓ integrate passed verified/);
    const p = sh(report!, repo, home);
    expect(p.code, p.err).toBe(0);
    const page = readFileSync(join(repo, "report.html"), "utf8");
    expect(page).toContain('<h2 id="work">Work</h2>');
    expect(page).toContain('<section class="merge" data-node="integrate">');
  }, 120_000);

  test("the Claude Code commands as written (the stub claude): each gets past the command line and starts the agent", () => {
    const dir = join(sandbox, "own-code");
    cpSync(join(ROOT, "examples", "sample-repo"), dir, { recursive: true });
    cpSync(join(ROOT, "graphs"), join(dir, "graphs"), { recursive: true });
    cpSync(join(dir, "REVIEW.md"), join(dir, "review.md"));
    git(dir, "init", "--quiet", "--initial-branch=main");
    commit(dir, "the project");
    writeFileSync(join(dir, "src", "slug.js"), `${readFileSync(join(dir, "src", "slug.js"), "utf8")}// changed\n`); // for git diff main
    const commands = Object.entries(COMMANDS)
      .filter(([, w]) => w === CLAUDE)
      .map(([c]) => c);
    expect(commands).toHaveLength(4);
    for (const [n, command] of commands.entries()) {
      const home = join(sandbox, `own-code-home-${n}`);
      const r = sh(command, dir, home);
      expect([0, 1, 3], `${command}: exit ${r.code}\n${r.err}`).toContain(r.code); // never 2: the command line and graph are valid
      const show = JSON.parse(sh("vouch show last --json", dir, home).out) as {
        nodes: { kind: string | null; attempts: { turns: number | null }[] }[];
        branches: { nodes: { kind: string | null; attempts: { turns: number | null }[] }[] }[];
      };
      const agents = [...show.nodes, ...show.branches.flatMap((b) => b.nodes)].filter((x) => x.kind === "agent");
      if (command.includes("checks-only"))
        expect(agents).toEqual([]); // no agent at all, as the README says
      else
        expect(
          agents.some((a) => a.attempts.some((t) => (t.turns ?? 0) >= 1)),
          command,
        ).toBe(true); // claude ran a turn
    }
  }, 180_000);

  test.skipIf(!Bun.which("jq"))(
    "the CI block as one script: jq reads the run's events, and the script exits with vouch's code",
    () => {
      const dir = join(sandbox, "ci");
      cpSync(join(ROOT, "examples", "sample-repo"), dir, { recursive: true });
      cpSync(join(ROOT, "graphs"), join(dir, "graphs"), { recursive: true });
      const block = shBlocks(README).find((b) => b[0]!.includes("events.ndjson"))!;
      const r = sh(block.join("\n"), dir, join(sandbox, "ci-home"));
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out.trim())).toMatchObject({ status: "passed", exit_code: 0, counts: { passed: 1, failed: 0 } });
      expect(readFileSync(join(dir, "events.ndjson"), "utf8").split("\n").filter(Boolean).length).toBeGreaterThan(3);
    },
    60_000,
  );
});
