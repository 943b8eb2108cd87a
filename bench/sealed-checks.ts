// What sealed checks cost (issue 26, ADR 0043), on a generated repository of
// 10,000 files: the same checks run, side by side in each repetition (rotating
// order), in the node's own tree as they were before sealing (unsealed: the
// live tree, no sandbox), on the engine's check tree without the sandbox (the
// engine's own AttemptTrees: the commit's files listed, the tree composed,
// written afresh with checkout-index, removed after), and on that tree in the
// sandbox (bubblewrap, the session's Confiner: tree writable, HOME and TMPDIR
// scratch, no network). Three checks: a light one (grep over every file) and two
// shaped like a test suite (node reads and compiles every file, once and 8 times).
// Beside the engine's path of today, the same run measures the path as it was
// before ADR 0073 ("before": seven git processes to compose, read-tree then a
// parallel checkout-index, the removal awaited, nothing prepared ahead), and an
// attempt of all three checks one after another through the engine's runChecks
// (the next check's tree written while one runs). Prints the ratios per
// repetition, the load and the fork cost; --write puts its section in
// bench/results.md.
//   bun bench/sealed-checks.ts [--reps N] [--files N] [--write]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CheckSpec, CommandContext, TreeLink } from "../src/engine/ports.ts";
import { AttemptTrees } from "../src/engine/run/check-tree.ts";
import { runChecks } from "../src/engine/run/checks.ts";
import { fromBasePaths } from "../src/engine/workspace/check-reads.ts";
import { treesRemoved } from "../src/workspace/check-tree.ts";
import { runGit } from "../src/workspace/run-git.ts";
import type { NodeEnv } from "../src/engine/run/contract.ts";
import { parentEnv } from "../src/spawn/child-env.ts";
import { createCommandRunner } from "../src/spawn/command-runner.ts";
import { ProcessSupervisor } from "../src/spawn/process-registry.ts";
import { Confiner } from "../src/spawn/sandbox/confine.ts";
import { SandboxProbe } from "../src/spawn/sandbox/probe.ts";
import { realGit } from "../src/workspace/git.ts";
import { Workspaces } from "../src/engine/workspace/workspaces.ts";
import { describeMachine, loadAverage } from "./lib/machine.ts";
import { ROOT, ratios, summarize, tempFolder } from "./lib/measure.ts";
import { markdown, row, verdict } from "./lib/table.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Math.max(1, Number(args[i + 1]) || fallback) : fallback;
};
const REPS = flag("--reps", 5);
const FILES = flag("--files", 10_000);
const ENV = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
const git = (cwd: string, ...a: string[]) => execFileSync("git", a, { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] }).toString();

/** A check shaped like a test suite: every file read and compiled, `rounds` times (argv). */
const COMPILE = `const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const rounds = Number(process.argv[2] ?? 1);
let n = 0;
const walk = (d, r) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p, r); else { new Function(readFileSync(p, "utf8") + "//" + r); n++; } } };
for (let r = 0; r < rounds; r++) walk("src", r);
if (n < ${FILES} * rounds) process.exit(1);
`;

/** FILES small JavaScript files in 100 folders and the check scripts, one commit; the node's tree of its own, one file edited and recorded. */
async function generate(): Promise<{ root: string; tree: string; base: string; commit: string }> {
  const root = realpathSync(tempFolder("vouch-bench-sealed-").path);
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, "src", `d${i % 100}`);
    if (i < 100) mkdirSync(dir, { recursive: true });
    const body = [0, 1, 2, 3].map((k) => `const x${i}_${k} = ${i};\nfunction f${i}_${k}(a) { return a + x${i}_${k}; }\n`);
    writeFileSync(join(dir, `f${i}.js`), body.join(""));
  }
  mkdirSync(join(root, "scripts"));
  writeFileSync(join(root, "scripts", "compile.js"), COMPILE);
  git(root, "init", "--quiet", "--initial-branch=main");
  git(root, "add", "--all");
  git(root, "commit", "--quiet", "-m", "generated");
  const base = git(root, "rev-parse", "HEAD").trim();
  const tree = join(root, ".vouch", "worktrees", "bench", "n");
  await realGit.hideVouchDir(root);
  await realGit.addWorktree(root, tree, "vouch/bench/n", base);
  writeFileSync(join(tree, "src", "d7", "f7.js"), "const changed = 1;\n");
  const s = await realGit.worktreeState(root, tree, "vouch/bench/n", base);
  const commit = await realGit.recordAttempt({ path: tree, gitDir: s.link!, branch: "vouch/bench/n", parent: base }, "bench");
  return { root, tree, base, commit };
}

const CHECKS: { label: string; spec: CheckSpec }[] = [
  { label: "grep over every file", spec: { name: "grep", run: "grep -rq 'return a' src", expect: "exit_zero", timeoutMs: 120_000 } },
  {
    label: "node compiles every file",
    spec: { name: "compile", run: "node scripts/compile.js 1", expect: "exit_zero", timeoutMs: 120_000 },
  },
  {
    label: "node compiles every file 8 times",
    spec: { name: "compile8", run: "node scripts/compile.js 8", expect: "exit_zero", timeoutMs: 120_000 },
  },
];

const supervisor = new ProcessSupervisor();
const probe = new SandboxProbe(parentEnv());
const confiner = new Confiner({ probe, hide: [], supervisor });
const runner = createCommandRunner({ parentEnv: parentEnv(), supervisor, confiner });

function context(cwd: string): CommandContext {
  return { runId: "bench", node: "n", attempt: 1, cwd, passEnv: [], vars: {}, inputs: [], state: {}, signal: new AbortController().signal };
}

/** The run's worktrees (its memos of the base's files and the ignored folders live as long as the run). */
const workspaces = new Workspaces(realGit, "bench");

/** The engine's view AttemptTrees reads: the git port, the run's worktrees, the run id, the node, its graph file. */
function env(root: string): NodeEnv {
  return {
    id: "n",
    signal: new AbortController().signal,
    run: { ports: { git: realGit, commands: runner }, options: { runId: "bench" }, workspaces, emitter: { emit: () => undefined } },
    frame: { graphPath: join(root, "graph.yaml"), graph: { version: 1, name: "bench", nodes: {} } },
  } as unknown as NodeEnv;
}

async function unsealed(tree: string, spec: CheckSpec): Promise<number> {
  const t0 = performance.now();
  const r = await runner.runCheck(spec, context(tree));
  if (!r.passed) throw new Error(`${spec.name} failed unsealed: ${r.reason}`);
  return performance.now() - t0;
}

type Generated = { root: string; base: string; commit: string };

/** The engine's path: a fresh tree from the commit (AttemptTrees.open), the check in it, the tree
 *  removed (in the background, which the time does not wait for; the next measure does). */
async function onTree(g: Generated, spec: CheckSpec, sandbox: boolean): Promise<number> {
  const t0 = performance.now();
  const trees = new AttemptTrees(
    env(g.root),
    { root: g.root, prefix: "", base: g.base, commit: g.commit, protect: [], sealed: sandbox },
    1,
  );
  const t = await trees.open(spec, false);
  try {
    const seal = sandbox ? { seal: { tree: t.dir, repository: g.root, network: false } } : {};
    const r = await runner.runCheck(spec, { ...context(t.dir), checkTree: { dir: t.dir, links: t.links, network: false }, ...seal });
    if (!r.passed) throw new Error(`${spec.name} failed on its tree (sandbox ${sandbox}): ${r.reason} ${r.stderrTail}`);
  } finally {
    await t.close();
  }
  const ms = performance.now() - t0;
  await treesRemoved();
  return ms;
}

/** The path as it was before ADR 0073, kept here to be measured beside today's: both commits
 *  listed, the tree composed with seven git processes, read into the tree's index and written by a
 *  parallel checkout-index, the ignored folders listed, the check sealed, the tree's removal awaited. */
async function before(g: Generated, spec: CheckSpec): Promise<number> {
  const t0 = performance.now();
  const [base, commit] = await Promise.all([workspaces.baseFiles(g.root, g.base), realGit.listFiles(g.root, g.commit)]);
  const paths = fromBasePaths({ run: spec.run, prefix: "", protect: [], graphFiles: ["graph.yaml"], baseFiles: base, commitFiles: commit });
  const tree = await composeBefore(g.root, g.commit, g.base, paths);
  const ignored = await workspaces.ignoredFolders(g.root);
  const links: TreeLink[] = ignored.filter((p) => p.endsWith("node_modules")).map((p) => ({ path: p, target: join(g.root, p) }));
  const dir = join("/dev/shm", `vouch-trees-${process.getuid?.() ?? 0}`, "bench-before", `${performance.now()}`.replace(".", "-"));
  const gitDir = join(dir, ".git");
  for (const d of ["objects/info", "refs/heads", "refs/tags"]) mkdirSync(join(gitDir, d), { recursive: true, mode: 0o700 });
  writeFileSync(join(gitDir, "HEAD"), `${tree}\n`);
  writeFileSync(join(gitDir, "objects", "info", "alternates"), `${join(g.root, ".git", "objects")}\n`);
  writeFileSync(join(gitDir, "config"), "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n");
  const at = [`--git-dir=${gitDir}`, `--work-tree=${dir}`];
  await runGit(dir, [...at, "read-tree", tree]);
  await runGit(dir, [...at, "-c", "checkout.workers=0", "checkout-index", "--all", "--force", "-u"]);
  for (const l of links) symlinkSync(l.target, join(dir, l.path));
  try {
    const seal = { seal: { tree: dir, repository: g.root, network: false } };
    const r = await runner.runCheck(spec, { ...context(dir), checkTree: { dir, links, network: false }, ...seal });
    if (!r.passed) throw new Error(`${spec.name} failed on its tree (before): ${r.reason} ${r.stderrTail}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return performance.now() - t0;
}

async function composeBefore(root: string, commit: string, from: string, paths: readonly string[]): Promise<string> {
  if (paths.length === 0) return commit;
  const dir = mkdtempSync(join(tmpdir(), "vouch-tree-index-"));
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    await runGit(root, ["read-tree", commit], undefined, { env });
    const take = new Set(paths);
    const out = paths.map((p) => `0 ${"0".repeat(40)}\t${p}\0`).join("");
    await runGit(root, ["update-index", "-z", "--index-info"], undefined, { env, stdin: out });
    const listed = (await runGit(root, ["ls-tree", "-r", "-z", "--full-tree", from])).split("\0");
    const back = listed.filter((e) => e !== "" && take.has(e.slice(e.indexOf("\t") + 1))).map((e) => `${e}\0`);
    if (back.length > 0) await runGit(root, ["update-index", "-z", "--index-info"], undefined, { env, stdin: back.join("") });
    const tree = (await runGit(root, ["write-tree"], undefined, { env })).trim();
    if (tree === (await runGit(root, ["rev-parse", "--verify", `${commit}^{tree}`])).trim()) return commit;
    return (await runGit(root, ["commit-tree", tree, "-p", commit, "-m", "bench"])).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One attempt's checks, all three one after another. */
async function attemptLive(tree: string): Promise<number> {
  const t0 = performance.now();
  for (const c of CHECKS) await unsealed(tree, c.spec);
  return performance.now() - t0;
}

async function attemptBefore(g: Generated): Promise<number> {
  const t0 = performance.now();
  for (const c of CHECKS) await before(g, c.spec);
  return performance.now() - t0;
}

/** Through the engine's runChecks: each check on a fresh sealed tree, the next one's written while one runs. */
async function attemptNow(g: Generated): Promise<number> {
  const t0 = performance.now();
  const e = env(g.root);
  const trees = new AttemptTrees(e, { root: g.root, prefix: "", base: g.base, commit: g.commit, protect: [], sealed: true }, 1);
  const out = await runChecks(
    e,
    CHECKS.map((c) => c.spec),
    context(g.root),
    1,
    null,
    trees,
  );
  const bad = out.find((o) => !o.passed);
  if (bad !== undefined) throw new Error(`${bad.name} failed in the attempt: ${bad.reason} ${bad.stderrTail}`);
  const ms = performance.now() - t0;
  await treesRemoved();
  return ms;
}

/** What one fork+exec costs here now: 200 `sh -c true` through xargs. */
function forkCost(): string {
  const t0 = performance.now();
  execFileSync("sh", ["-c", "seq 200 | xargs -I{} sh -c true"]);
  return `${((performance.now() - t0) / 200).toFixed(1)} ms`;
}

const loadBefore = loadAverage();
const forkBefore = forkCost();
const machine = describeMachine();
const sandboxed = (await probe.check()).available;
const g = await generate();
const rows: ReturnType<typeof row>[] = [];
try {
  for (const c of CHECKS) {
    const live: number[] = [];
    const off: number[] = [];
    const sealed: number[] = [];
    const old: number[] = [];
    // One warm-up of each (page cache), not counted.
    await unsealed(g.tree, c.spec);
    await onTree(g, c.spec, false);
    if (sandboxed) await onTree(g, c.spec, true);
    if (sandboxed) await before(g, c.spec);
    for (let rep = 1; rep <= REPS; rep++) {
      const steps = [
        async () => void live.push(await unsealed(g.tree, c.spec)),
        async () => void off.push(await onTree(g, c.spec, false)),
        ...(sandboxed
          ? [async () => void sealed.push(await onTree(g, c.spec, true)), async () => void old.push(await before(g, c.spec))]
          : []),
      ];
      for (let k = 0; k < steps.length; k++) await steps[(k + rep) % steps.length]!();
    }
    rows.push(row(`Check (${c.label}), unsealed: in the node's live tree`, summarize(live), "ms"));
    rows.push(row(`Check (${c.label}) on its check tree, sandbox off`, summarize(off), "ms"));
    if (sandboxed) {
      rows.push(row(`Check (${c.label}) sealed, before ADR 0073`, summarize(old), "ms"));
      rows.push(row(`Check (${c.label}) on its check tree, sealed (bubblewrap)`, summarize(sealed), "ms"));
    }
    const offRatio = ratios(off, live);
    rows.push(
      row(`**Ratio (${c.label}): check tree, sandbox off / unsealed** (per repetition)`, offRatio, "x", verdict(offRatio, 1.3, "≤ 1.3×")),
    );
    if (sandboxed) {
      const o = ratios(old, live);
      rows.push(row(`Ratio (${c.label}): sealed before ADR 0073 / unsealed (per repetition)`, o, "x", verdict(o, 1.3, "≤ 1.3×")));
      const r = ratios(sealed, live);
      rows.push(row(`**Ratio (${c.label}): sealed / unsealed** (per repetition)`, r, "x", verdict(r, 1.3, "≤ 1.3×")));
      const added = summarize(sealed.map((x, i) => x - live[i]!));
      rows.push(row(`Added by the check tree and the sandbox (${c.label}): sealed − unsealed (per repetition)`, added, "ms"));
    }
  }
  if (sandboxed) {
    // One attempt of all three checks, as the engine runs them.
    const live: number[] = [];
    const old: number[] = [];
    const now: number[] = [];
    await attemptNow(g);
    for (let rep = 1; rep <= REPS; rep++) {
      const steps = [
        async () => void live.push(await attemptLive(g.tree)),
        async () => void old.push(await attemptBefore(g)),
        async () => void now.push(await attemptNow(g)),
      ];
      for (let k = 0; k < steps.length; k++) await steps[(k + rep) % steps.length]!();
    }
    rows.push(row("An attempt's three checks one after another, unsealed", summarize(live), "ms"));
    rows.push(row("The same attempt sealed, before ADR 0073", summarize(old), "ms"));
    rows.push(row("The same attempt sealed (runChecks: the next tree written while a check runs)", summarize(now), "ms"));
    const o = ratios(old, live);
    rows.push(row("Ratio (the attempt): sealed before ADR 0073 / unsealed (per repetition)", o, "x", verdict(o, 1.3, "≤ 1.3×")));
    const r = ratios(now, live);
    rows.push(row("**Ratio (the attempt): sealed / unsealed** (per repetition)", r, "x", verdict(r, 1.3, "≤ 1.3×")));
  }
} finally {
  await runner.close();
  supervisor.killAll();
  await treesRemoved();
  rmSync(g.root, { recursive: true, force: true });
  rmSync(join("/dev/shm", `vouch-trees-${process.getuid?.() ?? 0}`, "bench-before"), { recursive: true, force: true });
}
const loadAfter = loadAverage();
const table = markdown(rows);
const forkAfter = forkCost();
const note = `${REPS} repetitions; commit ${machine.commit}; ${machine.uname}; ${machine.cores} cores (${machine.cpu}); ${machine.memoryGiB.toFixed(1)} GiB; Bun ${machine.bun}; load average ${loadBefore} before, ${loadAfter} after; fork+exec ${forkBefore} before, ${forkAfter} after${sandboxed ? "" : "; the sandbox does not work here: no sealed rows"}`;
console.log(`${table}\n${note}`);

if (args.includes("--write")) {
  const file = join(ROOT, "bench", "results.md");
  const start = "<!-- bench/sealed-checks.ts -->";
  const end = "<!-- /bench/sealed-checks.ts -->";
  const section = `${start}
## Sealed checks (\`bun bench/sealed-checks.ts\`, ${machine.date.slice(0, 10)})

A generated repository of ${FILES.toLocaleString("en-US")} JavaScript files (100 folders, one commit) and a node's tree
of its own with one file edited and recorded. Each repetition runs the same check, in rotating
order: in the node's live tree (unsealed, as checks ran before issue 26); on a fresh check tree the
engine builds from the recorded commit (\`AttemptTrees.open\`: both commits listed, the tree
composed, written with checkout-index, removed after), sandbox off; and on that tree sealed
(bubblewrap through the session's \`Confiner\`).

${table}

${note}.
${end}`;
  const old = readFileSync(file, "utf8");
  const at = old.indexOf(start);
  const next = at >= 0 ? old.slice(0, at) + section + old.slice(old.indexOf(end) + end.length) : `${old.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  console.error(`wrote its section of ${file}`);
}
