// What a worktree costs per sitting (issue 15, ADR 0020/0021), on a generated
// repository of 10,000 files: the engine's own path (Workspaces.open + settle
// through the real GitPort: worktree and branch, the attempt's commit by
// "vouch", changed paths for `protect`, the diff stat), side by side in each
// repetition with the floor — a plain `git worktree add` — and with the same
// git steps run as plain commands. Prints the ratios, the git processes the
// engine's path starts, the cost of one fork+exec, and the load average before
// and after (the machine may be shared). Writes its section of bench/results.md
// with --write.
//   bun bench/worktree.ts [--reps N] [--files N] [--write]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GitPort } from "../src/engine/ports.ts";
import { Workspaces } from "../src/engine/workspace/workspaces.ts";
import { realGit } from "../src/workspace/git.ts";
import { describeMachine, loadAverage } from "./lib/machine.ts";
import { ROOT, ratios, summarize, tempFolder } from "./lib/measure.ts";
import { fmt, markdown, row } from "./lib/table.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Math.max(1, Number(args[i + 1]) || fallback) : fallback;
};
const REPS = flag("--reps", 7);
const FILES = flag("--files", 10_000);
const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@b",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@b",
  GIT_CONFIG_NOSYSTEM: "1",
};
const git = (cwd: string, ...a: string[]) => execFileSync("git", a, { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] }).toString();

/** FILES small text files in 100 folders, one commit on main. */
function generateRepo(): string {
  const root = realpathSync(tempFolder("vouch-bench-wt-").path);
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

/** Counts GitPort calls: each is at least one git process. */
function counting(port: GitPort): { port: GitPort; calls: () => number } {
  let n = 0;
  const port2 = new Proxy(port, {
    get: (t, k) =>
      typeof t[k as keyof GitPort] === "function"
        ? (...a: unknown[]) => (n++, (t[k as keyof GitPort] as (...x: unknown[]) => unknown)(...a))
        : t[k as keyof GitPort],
  });
  return { port: port2 as GitPort, calls: () => n };
}

const edit = (dir: string, rep: number) => writeFileSync(join(dir, "src", "d7", "f7.txt"), `changed in repetition ${rep}\n`);

async function engineSitting(root: string, rep: number, port: GitPort): Promise<number> {
  const t0 = performance.now();
  const ws = new Workspaces(port, `bench${rep}`);
  const opened = await ws.open("implement", undefined, { base: "HEAD", protect: ["test/**"], keep: "never" }, root);
  edit(opened.path, rep);
  const work = await ws.settle(opened, 1);
  if (work.record.files_changed !== 1) throw new Error(`expected 1 file changed, got ${work.record.files_changed}`);
  return performance.now() - t0;
}

function plainSteps(root: string, rep: number): number {
  const path = join(root, ".vouch", "worktrees", `plain${rep}`);
  const t0 = performance.now();
  git(root, "worktree", "add", "--quiet", "-b", `plain/${rep}`, path, "HEAD");
  edit(path, rep);
  git(path, "add", "--all");
  git(path, "commit", "--quiet", "-m", "plain");
  git(root, "diff", "--name-status", "-z", "HEAD", `plain/${rep}`);
  git(root, "diff", "--numstat", "-z", "HEAD", `plain/${rep}`);
  return performance.now() - t0;
}

function floor(root: string, rep: number): number {
  const path = join(root, ".vouch", "worktrees", `floor${rep}`);
  const t0 = performance.now();
  git(root, "worktree", "add", "--quiet", "-b", `floor/${rep}`, path, "HEAD");
  return performance.now() - t0;
}

/** One fork+exec of a program that does nothing, as the spawn seam's floor. */
function forkCost(n = 30): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    Bun.spawnSync(["/bin/true"]);
    out.push(performance.now() - t0);
  }
  return out;
}

const loadBefore = loadAverage();
const machine = describeMachine();
const root = generateRepo();
const eng: number[] = [];
const plain: number[] = [];
const flo: number[] = [];
let gitCalls = 0;
try {
  // One warm-up of each (page cache, git's own start), not counted.
  await engineSitting(root, 0, realGit);
  plainSteps(root, 0);
  floor(root, 0);
  for (let rep = 1; rep <= REPS; rep++) {
    // The order rotates, so a trend in the machine's load does not favour one.
    const steps = [
      async () => {
        const c = counting(realGit);
        eng.push(await engineSitting(root, rep, c.port));
        gitCalls = c.calls();
      },
      async () => void plain.push(plainSteps(root, rep)),
      async () => void flo.push(floor(root, rep)),
    ];
    for (let k = 0; k < steps.length; k++) await steps[(k + rep) % steps.length]!();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
const fork = summarize(forkCost());
const loadAfter = loadAverage();

const rows = [
  row(
    `Worktree: the engine's sitting (open + commit + changed paths + diff stat), ${FILES.toLocaleString("en-US")} files`,
    summarize(eng),
    "ms",
    `${gitCalls} GitPort calls`,
  ),
  row("Worktree: the same steps as plain git commands", summarize(plain), "ms"),
  row("Worktree: plain `git worktree add` (the floor)", summarize(flo), "ms"),
  row("**Worktree ratio: engine's sitting / plain `git worktree add`** (per repetition)", ratios(eng, flo), "x"),
  row("**Worktree ratio: engine's sitting / the same steps in plain git** (per repetition)", ratios(eng, plain), "x"),
  row("Fork + exec of /bin/true (Bun.spawnSync)", fork, "ms"),
];
const table = markdown(rows);
const note = `${REPS} repetitions; commit ${machine.commit}; ${machine.cores} cores (${machine.cpu}); load average ${loadBefore} before, ${loadAfter} after`;
console.log(`${table}\n${note}`);

if (args.includes("--write")) {
  const file = join(ROOT, "bench", "results.md");
  const start = "<!-- bench/worktree.ts -->";
  const end = "<!-- /bench/worktree.ts -->";
  const section = `${start}
## Worktree per sitting (\`bun bench/worktree.ts\`, ${machine.date.slice(0, 10)})

A generated repository of ${FILES.toLocaleString("en-US")} files (100 folders, one commit). Each repetition runs,
in rotating order: the engine's own path for one sitting (\`Workspaces.open\` + \`settle\` through the
real GitPort: \`.vouch\` hidden, earlier worktree and branch looked for, worktree and branch added, one
file edited, committed by "vouch", changed paths for \`protect\`, the diff stat); the same git steps
as plain \`git\` commands; and a plain \`git worktree add\` alone (the floor).

${table}

${note}.
${end}`;
  const old = readFileSync(file, "utf8");
  const at = old.indexOf(start);
  const next = at >= 0 ? old.slice(0, at) + section + old.slice(old.indexOf(end) + end.length) : `${old.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  console.error(`wrote its section of ${file}`);
}
