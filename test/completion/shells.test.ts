// The completion scripts in the real shells, against the real binary and a real
// ledger: bash (source the script, set COMP_WORDS/COMP_CWORD, call the function,
// read COMPREPLY), zsh (the function with compadd and _files recorded; and once
// with a real Tab in a terminal), fish (complete -C). The ledger holds a run with
// worktree nodes and a run paused at an approval; completing never changes it.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BINARY, cleanEnv, ensureBinary, vouch } from "../e2e/helpers.ts";
import { exitedWith, TMUX, TmuxScreen } from "../e2e/tmux.ts";
import { git } from "../workspace/git-repo.ts";
import { project, type Project } from "../init/fixtures.ts";

let p: Project;
let home: string;
let bin: string;
const ids: { passed: string; paused: string } = { passed: "", paused: "" };

beforeAll(async () => {
  ensureBinary();
  p = project({
    "package.json": '{"scripts":{"test":"node -e 0"}}',
    "package-lock.json": "{}",
    "gate.yaml": 'version: 1\nname: gate\nnodes:\n  ship: { kind: approval, prompt: "Ship it?" }\n',
    "notes.txt": "not a graph\n",
    "graphs/more.yml": "version: 1\n",
  });
  home = join(p.root, ".vouch");
  bin = join(p.root, ".bin");
  mkdirSync(bin);
  symlinkSync(BINARY, join(bin, "vouch"));
  const agent = join(bin, "agent.sh");
  writeFileSync(agent, "#!/bin/sh\ncat >/dev/null\necho x >> src.txt\necho done\n");
  chmodSync(agent, 0o755);
  const o = { home, cwd: p.root, env: { VOUCH_COMMAND: agent } };
  expect((await vouch(["init", "--yes", "--no-run-checks", "--harness", "command"], o)).code).toBe(0);
  git(p.root, "add", "--all");
  git(p.root, "commit", "--quiet", "-m", "vouch");
  expect((await vouch(["run", "vouch.graph.yaml", "-i", "task=x", "--plain"], o)).code).toBe(0);
  expect((await vouch(["run", "gate.yaml", "--plain"], o)).code).toBe(4);
  const runs = JSON.parse((await vouch(["runs", "--json"], o)).stdout) as { id: string; graph: string }[];
  ids.paused = runs.find((r) => r.graph === "gate")!.id;
  ids.passed = runs.find((r) => r.graph !== "gate")!.id;
}, 180_000);
afterAll(() => p?.cleanup());

function env(): Record<string, string> {
  return { ...cleanEnv({ home }), PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };
}

function shell(argv: string[]): string {
  const r = Bun.spawnSync(argv, { cwd: p.root, env: env(), stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv[0]} exit ${r.exitCode}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const lines = (out: string) => out.split("\n").filter((l) => l !== "");

/** COMPREPLY for the words typed (the last one is being completed). */
function bash(...words: string[]): string[] {
  const script = [
    "source <(vouch completion bash)",
    `COMP_WORDS=(${["vouch", ...words].map(q).join(" ")})`,
    `COMP_CWORD=${words.length}`,
    "_vouch",
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  return lines(shell(["bash", "--norc", "--noprofile", "-c", script])).sort();
}

/** What _vouch hands compadd (the values) and _files (its arguments), in zsh. */
function zsh(...words: string[]): string[] {
  const script = [
    "source <(vouch completion zsh)",
    'compadd() { while (( $# )); do case $1 in -a) shift; for a in "$@"; do print -rl -- "${(@P)a}"; done; return;; -d) shift 2;; *) shift;; esac; done }',
    '_files() { print -r -- "_files $*" }',
    `words=(${["vouch", ...words].map(q).join(" ")})`,
    `CURRENT=${words.length + 1}`,
    "_vouch",
  ].join("\n");
  return lines(shell(["zsh", "-f", "-c", script])).sort();
}

/** fish's own completions for the line (values only). */
function fish(line: string): string[] {
  const out = shell(["fish", "--no-config", "-c", `vouch completion fish | source; complete -C ${q(line)}`]);
  return lines(out)
    .map((l) => l.split("\t")[0]!)
    .sort();
}

function ledgerState(): string[] {
  return readdirSync(home)
    .sort()
    .map((f) => {
      const path = join(home, f);
      const st = statSync(path);
      if (!st.isFile()) return `${f}/`;
      // SQLite's shared-memory index takes a reader's read marks: its bytes are SQLite's, not the ledger's.
      if (f.endsWith("-shm")) return f;
      return `${f} ${st.size} ${st.mtimeMs} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
    });
}

type Shell = "bash" | "zsh" | "fish";
const ASK: Record<Shell, (...words: string[]) => string[]> = { bash, zsh, fish: (...words) => fish(["vouch", ...words].join(" ")) };
/** Shells this machine lacks are reported skipped, like the other tools .ci/run installs. */
const has = (sh: Shell) => Bun.which(sh) !== null;

describe.each(["bash", "zsh", "fish"] as const)("the same questions in %s", (sh) => {
  const ask = ASK[sh];
  test.skipIf(!has(sh))("commands by prefix, and a command's options", () => {
    expect(ask("ru")).toEqual(["run", "runs"]);
    expect(ask("run", "--dr")).toEqual(["--dry-run"]);
    expect(ask("init", "--h")).toEqual(["--harness", "--help"]);
  });

  test.skipIf(!has(sh))("graph files (*.yaml, *.yml) and folders where a GRAPH goes, never other files", () => {
    if (sh === "zsh") {
      expect(ask("validate", "")).toEqual(["_files -g *.(yaml|yml)"]); // zsh's own _files lists them
      return;
    }
    const graphs = ask("run", "");
    expect(graphs).toEqual(expect.arrayContaining(["gate.yaml", "vouch.checks.yaml", "vouch.graph.yaml"]));
    expect(graphs.some((g) => g.replace(/\/$/, "") === "graphs")).toBe(true);
    expect(graphs).not.toContain("notes.txt");
    expect(ask("run", "graphs/")).toEqual(["graphs/more.yml"]);
  });

  test.skipIf(!has(sh))("recent run ids and last where a RUN goes", () => {
    const want = ["last", ids.passed, ids.paused].sort();
    expect(ask("show", "")).toEqual(want);
    expect(ask("resume", "")).toEqual(want);
  });

  test.skipIf(!has(sh))("node ids of the run on the line: --diff its worktree nodes, --approve and --reject its approvals", () => {
    expect(ask("show", ids.passed, "--diff", "")).toEqual(["implement", "integrate"]);
    expect(ask("show", ids.passed, "--diff", "im")).toEqual(["implement"]);
    expect(ask("show", "last", "--diff", "")).toEqual([]); // the last run is the paused gate: no worktree
    expect(ask("resume", ids.paused, "--approve", "")).toEqual(["ship"]);
    // A prefix the other run does not share (two runs in one second share 15 characters).
    const prefix = ids.paused.slice(0, [...ids.paused].findIndex((c, i) => c !== ids.passed[i]) + 1);
    expect(ask("resume", prefix, "--reject", "")).toEqual(["ship"]);
  });

  test.skipIf(!has(sh))("choices: --format, --harness, the shells", () => {
    expect(ask("graph", "gate.yaml", "--format", "")).toEqual(["dot", "mermaid", "text"]);
    expect(ask("run", "gate.yaml", "--harness", "c")).toEqual(["claude", "codex", "command"]);
    expect(ask("completion", "")).toEqual(["bash", "fish", "zsh"]);
  });
});

describe("asking, and the ledger", () => {
  test("the line's own vouch is asked: a path to the binary completes with PATH empty of vouch", () => {
    const script = [
      "source <(vouch completion bash)",
      `COMP_WORDS=(${q(BINARY)} ru)`,
      "COMP_CWORD=1",
      'PATH=/nowhere _vouch; printf "%s\\n" "${COMPREPLY[@]}"',
    ].join("\n");
    expect(lines(shell(["bash", "--norc", "-c", script])).sort()).toEqual(["run", "runs"]);
  });

  test("completing never changes the ledger", () => {
    const before = ledgerState();
    for (let i = 0; i < 3; i++)
      for (const sh of (["bash", "zsh", "fish"] as const).filter(has)) {
        ASK[sh]("show", "");
        ASK[sh]("show", ids.passed, "--diff", "");
        ASK[sh]("resume", ids.paused, "--approve", "");
      }
    expect(ledgerState()).toEqual(before);
  });
});

describe("a ledger closed cleanly (no -wal, no -shm beside it)", () => {
  test("completing reads its runs and creates no file next to it", () => {
    const clean = join(p.root, ".clean-home");
    mkdirSync(clean);
    const db = new Database(join(home, "ledger.sqlite"));
    db.run(`VACUUM INTO '${join(clean, "ledger.sqlite")}'`);
    db.close();
    const c = new Database(join(clean, "ledger.sqlite"));
    c.run("PRAGMA journal_mode = WAL"); // as vouch keeps it: the last close removes -wal and -shm
    c.close();
    const listing = () => readdirSync(clean).sort();
    expect(listing()).toEqual(["ledger.sqlite"]);
    const r = Bun.spawnSync([BINARY, "__complete", "show", ""], { cwd: p.root, env: { ...env(), VOUCH_HOME: clean }, stdout: "pipe" });
    expect(lines(r.stdout.toString()).map((l) => l.split("\t")[0])).toEqual(["words", "last", ids.paused, ids.passed]);
    expect(listing()).toEqual(["ledger.sqlite"]);
  });
});

describe.skipIf(!TMUX || !Bun.which("zsh"))("zsh with a real Tab", () => {
  test("vouch ru<Tab> becomes vouch run, and --diff <Tab> lists the worktree nodes", async () => {
    const zdot = join(p.root, ".zdot");
    mkdirSync(zdot, { recursive: true });
    writeFileSync(join(zdot, ".zshrc"), "autoload -Uz compinit && compinit -u -D\nsource <(vouch completion zsh)\nPS1='> '\n");
    const screen = new TmuxScreen(p.root);
    try {
      screen.start(["sh", "-c", `cd ${q(p.root)} && exec zsh -i`], { ...env(), ZDOTDIR: zdot }, { width: 120, height: 20 });
      await screen.waitFor("the prompt", (s) => s.some((l) => l.startsWith(">")), 15_000);
      screen.keys("vouch complet", "Tab");
      await screen.waitFor("the command completed", (s) => s.some((l) => l === "> vouch completion"), 15_000);
      screen.keys("C-u", `vouch show ${ids.passed} --diff i`, "Tab");
      await screen.waitFor("the node list", (s) => s.some((l) => /^implement\b/.test(l)) && s.some((l) => /^integrate\b/.test(l)), 15_000);
      screen.keys("C-u", "exit", "Enter");
      const done = await screen.waitFor("the exit", (s) => exitedWith(s) !== null, 15_000);
      expect(exitedWith(done)).toBe(0);
    } finally {
      screen.kill();
    }
  }, 90_000);
});
