// What sealing costs (issue 26, ADR 0040/0041), side by side in one run:
//  - a sitting's start, confined against unconfined: the same `/bin/true` through
//    runProcess, once plainly and once through the session's Confiner (a scratch
//    TMPDIR, the repository's git records found, the spec) and bubblewrap, with
//    network and without (its own network namespace); the difference per repetition
//    is what sealing adds to every sitting (goal: at most 20 ms);
//  - a node's tree on a repository of 10,000 files: the private clone with vouch's
//    own git dir (addTree, ADR 0041) against a plain `git worktree add`.
// Each repetition runs every measure, the order rotating. Writes its section of
// bench/results.md with --write.
//   bun bench/sandbox.ts [--reps N] [--tree-reps N] [--files N] [--write]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "../src/spawn/process.ts";
import { ProcessSupervisor } from "../src/spawn/process-registry.ts";
import { Confiner } from "../src/spawn/sandbox/confine.ts";
import { SandboxProbe } from "../src/spawn/sandbox/probe.ts";
import { realGit } from "../src/workspace/git.ts";
import { describeMachine, loadAverage } from "./lib/machine.ts";
import { ROOT, summarize, tempFolder } from "./lib/measure.ts";
import { markdown, row, verdict } from "./lib/table.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Math.max(1, Number(args[i + 1]) || fallback) : fallback;
};
const REPS = flag("--reps", 40);
const TREE_REPS = flag("--tree-reps", 7);
const FILES = flag("--files", 10_000);
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: "/nonexistent" };
const git = (cwd: string, ...a: string[]) =>
  execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...a], { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] }).toString();

/** FILES small text files in 100 folders, one commit on main. */
function generateRepo(): string {
  const root = realpathSync(tempFolder("vouch-bench-sandbox-").path);
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, "src", `d${i % 100}`);
    if (i < 100) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`.repeat(8));
  }
  git(root, "init", "--quiet", "--initial-branch=main");
  git(root, "add", "--all");
  git(root, "commit", "--quiet", "-m", "generated");
  return root;
}

const loadBefore = loadAverage();
const machine = describeMachine();
const repo = generateRepo();
const supervisor = new ProcessSupervisor();
const probe = new SandboxProbe({ PATH: ENV.PATH });
const found = await probe.check();
if (!found.available) throw new Error(`sealing does not work here: ${found.reason}`);
const confiner = new Confiner({ probe, hide: [join(repo, ".vouch")], supervisor });
const env = { PATH: ENV.PATH };

const plain: number[] = [];
const sealed: number[] = [];
const sealedNoNet: number[] = [];
const added: number[] = [];
const addedNoNet: number[] = [];
const tree: number[] = [];
const worktree: number[] = [];
try {
  const base = (await realGit.resolveCommit(repo, "HEAD"))!;
  await realGit.hideVouchDir(repo);
  const sitting = join(repo, ".vouch", "worktrees", "bench", "n");
  await realGit.addWorktree(repo, sitting, "vouch/bench/n", base);

  async function start(request?: { network: boolean }): Promise<number> {
    const t0 = performance.now();
    if (request === undefined) {
      await runProcess({ argv: ["/bin/true"] }, { cwd: sitting, env, supervisor });
      return performance.now() - t0;
    }
    const c = await confiner.open({ tree: sitting, repository: repo, network: request.network }, env);
    if ("error" in c) throw new Error(c.error);
    const r = await runProcess({ argv: ["/bin/true"] }, { cwd: sitting, env: c.env, sandbox: c.spec, supervisor });
    await c.release();
    if (r.exit !== 0) throw new Error(`sealed true failed: ${r.stderrTail}`);
    return performance.now() - t0;
  }
  // One warm-up of each, not counted.
  await start();
  await start({ network: true });
  await start({ network: false });
  for (let rep = 1; rep <= REPS; rep++) {
    const steps = [
      async () => void plain.push(await start()),
      async () => void sealed.push(await start({ network: true })),
      async () => void sealedNoNet.push(await start({ network: false })),
    ];
    for (let k = 0; k < steps.length; k++) await steps[(k + rep) % steps.length]!();
    added.push(sealed.at(-1)! - plain.at(-1)!);
    addedNoNet.push(sealedNoNet.at(-1)! - plain.at(-1)!);
  }

  for (let rep = 0; rep <= TREE_REPS; rep++) {
    const steps = [
      async () => {
        const t0 = performance.now();
        await realGit.addWorktree(repo, join(repo, ".vouch", "worktrees", "bench", `t${rep}`), `vouch/bench/t${rep}`, base);
        if (rep > 0) tree.push(performance.now() - t0);
      },
      async () => {
        const t0 = performance.now();
        git(repo, "worktree", "add", "--quiet", "-b", `plain/${rep}`, join(repo, ".vouch", "plain", `w${rep}`), base);
        if (rep > 0) worktree.push(performance.now() - t0);
      },
    ];
    for (let k = 0; k < steps.length; k++) await steps[(k + rep) % steps.length]!();
  }
} finally {
  rmSync(repo, { recursive: true, force: true });
}
const loadAfter = loadAverage();

const rows = [
  row("Sitting start, unconfined: `/bin/true` through runProcess", summarize(plain), "ms"),
  row("Sitting start, confined: Confiner.open + bubblewrap + `/bin/true` (network on)", summarize(sealed), "ms"),
  row("Sitting start, confined, `network: false` (its own network namespace)", summarize(sealedNoNet), "ms"),
  row(
    "**What sealing adds to a sitting's start** (confined − unconfined, per repetition)",
    summarize(added),
    "ms",
    verdict(summarize(added), 20, "≤ 20 ms"),
  ),
  row("**… with `network: false`** (per repetition)", summarize(addedNoNet), "ms", verdict(summarize(addedNoNet), 20, "≤ 20 ms")),
  row(`A node's tree of its own (addTree: clone + vouch's git dir), ${FILES.toLocaleString("en-US")} files`, summarize(tree), "ms"),
  row(`Plain \`git worktree add\`, ${FILES.toLocaleString("en-US")} files`, summarize(worktree), "ms"),
  row("**Tree ratio: addTree / `git worktree add`** (per repetition)", summarize(tree.map((t, i) => t / worktree[i]!)), "x"),
];
const table = markdown(rows);
const note = `${REPS} start repetitions, ${TREE_REPS} tree repetitions; commit ${machine.commit}; ${machine.cores} cores (${machine.cpu}); load average ${loadBefore} before, ${loadAfter} after; ${found.version}`;
console.log(`${table}\n${note}`);

if (args.includes("--write")) {
  const file = join(ROOT, "bench", "results.md");
  const start = "<!-- bench/sandbox.ts -->";
  const end = "<!-- /bench/sandbox.ts -->";
  const section = `${start}
## Sealing (\`bun bench/sandbox.ts\`, ${machine.date.slice(0, 10)})

Machine: \`${machine.uname}\`; ${machine.cpu}; ${machine.cores} cores; ${machine.memoryGiB} GiB; Bun ${machine.bun}.
Each repetition runs, in rotating order, a sitting's start unconfined (\`/bin/true\` through
runProcess) and confined (the session's Confiner: a scratch TMPDIR, the repository's git records,
the spec; then bubblewrap with its pid namespace and our init), with network and without; the
difference is taken per repetition. Then a node's tree on a generated repository of
${FILES.toLocaleString("en-US")} files: the private clone with vouch's own git dir (ADR 0041) against
a plain \`git worktree add\`, side by side.

${table}

${note}.
${end}`;
  const old = readFileSync(file, "utf8");
  const at = old.indexOf(start);
  const next = at >= 0 ? old.slice(0, at) + section + old.slice(old.indexOf(end) + end.length) : `${old.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  console.error(`wrote its section of ${file}`);
}
