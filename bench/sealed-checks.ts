// What sealed checks cost (issue 26, ADR 0043), on a generated repository of
// 10,000 files: the same checks run, side by side in each repetition (rotating
// order), in the node's own tree as they were before sealing (unsealed: the
// live tree, no sandbox), on the engine's check tree without the sandbox (the
// engine's own AttemptTrees: the commit's files listed, the tree composed,
// written afresh with checkout-index, removed after), and on that tree in the
// sandbox (bubblewrap, the session's Confiner: tree writable, HOME and TMPDIR
// scratch, no network). Three checks: a light one (grep over every file) and two
// shaped like a test suite (node reads and compiles every file, once and 8 times). Prints the
// ratios per repetition and the machine line; --write puts its section in
// bench/results.md.
//   bun bench/sealed-checks.ts [--reps N] [--files N] [--write]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckSpec, CommandContext } from "../src/engine/ports.ts";
import { AttemptTrees } from "../src/engine/run/check-tree.ts";
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
    run: { ports: { git: realGit }, options: { runId: "bench" }, workspaces },
    frame: { graphPath: join(root, "graph.yaml"), graph: { version: 1, name: "bench", nodes: {} } },
  } as unknown as NodeEnv;
}

async function unsealed(tree: string, spec: CheckSpec): Promise<number> {
  const t0 = performance.now();
  const r = await runner.runCheck(spec, context(tree));
  if (!r.passed) throw new Error(`${spec.name} failed unsealed: ${r.reason}`);
  return performance.now() - t0;
}

/** The engine's path: a fresh tree from the commit (AttemptTrees.open), the check in it, the tree removed. */
async function onTree(g: { root: string; base: string; commit: string }, spec: CheckSpec, sandbox: boolean): Promise<number> {
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
  return performance.now() - t0;
}

const loadBefore = loadAverage();
const machine = describeMachine();
const sandboxed = (await probe.check()).available;
const g = await generate();
const rows: ReturnType<typeof row>[] = [];
try {
  for (const c of CHECKS) {
    const live: number[] = [];
    const off: number[] = [];
    const sealed: number[] = [];
    // One warm-up of each (page cache), not counted.
    await unsealed(g.tree, c.spec);
    await onTree(g, c.spec, false);
    if (sandboxed) await onTree(g, c.spec, true);
    for (let rep = 1; rep <= REPS; rep++) {
      const steps = [
        async () => void live.push(await unsealed(g.tree, c.spec)),
        async () => void off.push(await onTree(g, c.spec, false)),
        ...(sandboxed ? [async () => void sealed.push(await onTree(g, c.spec, true))] : []),
      ];
      for (let k = 0; k < steps.length; k++) await steps[(k + rep) % steps.length]!();
    }
    rows.push(row(`Check (${c.label}), unsealed: in the node's live tree`, summarize(live), "ms"));
    rows.push(row(`Check (${c.label}) on its check tree, sandbox off`, summarize(off), "ms"));
    if (sandboxed) rows.push(row(`Check (${c.label}) on its check tree, sealed (bubblewrap)`, summarize(sealed), "ms"));
    const offRatio = ratios(off, live);
    rows.push(
      row(`**Ratio (${c.label}): check tree, sandbox off / unsealed** (per repetition)`, offRatio, "x", verdict(offRatio, 1.3, "≤ 1.3×")),
    );
    if (sandboxed) {
      const r = ratios(sealed, live);
      rows.push(row(`**Ratio (${c.label}): sealed / unsealed** (per repetition)`, r, "x", verdict(r, 1.3, "≤ 1.3×")));
      const added = summarize(sealed.map((x, i) => x - live[i]!));
      rows.push(row(`Added by the check tree and the sandbox (${c.label}): sealed − unsealed (per repetition)`, added, "ms"));
    }
  }
} finally {
  await runner.close();
  supervisor.killAll();
  rmSync(g.root, { recursive: true, force: true });
}
const loadAfter = loadAverage();
const table = markdown(rows);
const note = `${REPS} repetitions; commit ${machine.commit}; ${machine.uname}; ${machine.cores} cores (${machine.cpu}); ${machine.memoryGiB.toFixed(1)} GiB; Bun ${machine.bun}; load average ${loadBefore} before, ${loadAfter} after${sandboxed ? "" : "; the sandbox does not work here: no sealed rows"}`;
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
