// Where a sealed check's fixed cost goes (ADR 0073): each piece of making its
// tree, measured alone on a generated repository of 10,000 files, medians of
// --reps runs. The pieces: one git process (the floor), listing a commit, a
// composition (first of an attempt, then with the base's listing memoized),
// a composition whose paths are the same in both (no process), listing the ignored folders, writing the tree as today (one `read-tree -u`,
// sequential) and as before (read-tree, then checkout-index with
// checkout.workers=0: one worker per core), a two-way switch of a tree already
// written from the base (`read-tree -m -u BASE COMMIT`, evaluated, not taken),
// unlinking a tree, bubblewrap's start (`/bin/true` sealed vs `sh -c true`).
//   bun bench/check-tree-pieces.ts [--reps N] [--files N]
import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "../src/workspace/run-git.ts";
import { realGit } from "../src/workspace/git.ts";
import { checkoutTreeAt, treesRemoved } from "../src/workspace/check-tree.ts";
import { loadAverage } from "./lib/machine.ts";
import { summarize, tempFolder } from "./lib/measure.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Math.max(1, Number(args[i + 1]) || fallback) : fallback;
};
const REPS = flag("--reps", 7);
const FILES = flag("--files", 10_000);
const ENV = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
const sh = (cwd: string, cmd: string) => execFileSync("sh", ["-c", cmd], { cwd, env: ENV, stdio: ["ignore", "pipe", "pipe"] }).toString();

const root = realpathSync(tempFolder("vouch-bench-pieces-").path);
for (let i = 0; i < FILES; i++) {
  const dir = join(root, "src", `d${i % 100}`);
  if (i < 100) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `f${i}.js`), `const x${i} = ${i};\nfunction f${i}(a) { return a + x${i}; }\n`.repeat(4));
}
sh(root, "git init -q -b main && git add -A && git commit -qm g");
const base = sh(root, "git rev-parse HEAD").trim();
writeFileSync(join(root, "src", "d7", "f7.js"), "changed\n");
sh(root, "git commit -qam c");
const commit = sh(root, "git rev-parse HEAD").trim();
const home = join("/dev/shm", `vouch-trees-${process.getuid?.() ?? 0}`, "bench-pieces");
let n = 0;
const fresh = () => join(home, `t${++n}`);

async function gitDirAt(dir: string, head: string): Promise<string[]> {
  const gitDir = join(dir, ".git");
  mkdirSync(join(gitDir, "objects", "info"), { recursive: true });
  mkdirSync(join(gitDir, "refs", "heads"), { recursive: true });
  writeFileSync(join(gitDir, "HEAD"), `${head}\n`);
  writeFileSync(join(gitDir, "objects", "info", "alternates"), `${join(root, ".git", "objects")}\n`);
  writeFileSync(join(gitDir, "config"), "[core]\n\tbare = false\n");
  return [`--git-dir=${gitDir}`, `--work-tree=${dir}`];
}

const pieces: Record<string, () => Promise<unknown>> = {
  "one git process (git version)": () => runGit(root, ["version"]),
  "list a commit's files (ls-tree -r)": () => realGit.listFiles(root, commit),
  "compose, listings memoized (4 git processes)": () => realGit.composeTree(root, commit, base, ["src/d7/f7.js"], `m${++n}`),
  "compose, the paths the same in both (no git process)": () => realGit.composeTree(root, commit, base, ["src/d8/f8.js"], "m"),
  "list the ignored folders": () => realGit.ignoredFolders(root),
  "write the tree now (read-tree --reset -u, 1 worker)": () => checkoutTreeAt(root, commit, fresh(), []),
  "write the tree before (read-tree + checkout-index, workers=0)": async () => {
    const dir = fresh();
    const at = await gitDirAt(dir, commit);
    await runGit(dir, [...at, "read-tree", commit]);
    await runGit(dir, [...at, "-c", "checkout.workers=0", "checkout-index", "--all", "--force", "-u"]);
  },
  "switch a tree written from the base (read-tree -m -u), not taken": async () => {
    const dir = fresh();
    await checkoutTreeAt(root, base, dir, []);
    const at = [`--git-dir=${join(dir, ".git")}`, `--work-tree=${dir}`];
    const t0 = performance.now();
    await runGit(dir, [...at, "read-tree", "-m", "-u", base, commit]);
    return performance.now() - t0;
  },
  "unlink a tree (rm -r, now in the background)": async () => {
    const dir = fresh();
    await checkoutTreeAt(root, commit, dir, []);
    const t0 = performance.now();
    rmSync(dir, { recursive: true, force: true });
    return performance.now() - t0;
  },
  "bubblewrap start (/bin/true sealed)": async () =>
    execFileSync("bwrap", [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--unshare-pid",
      "--unshare-net",
      "--as-pid-1",
      "--",
      "/bin/true",
    ]),
  "sh -c true (no sandbox)": async () => execFileSync("sh", ["-c", "true"]),
};

const load = loadAverage();
await realGit.composeTree(root, commit, base, ["src/d7/f7.js"], "warm");
const lines: string[] = [];
try {
  for (const [label, f] of Object.entries(pieces)) {
    const xs: number[] = [];
    for (let r = 0; r < REPS; r++) {
      const t0 = performance.now();
      const inner = await f();
      xs.push(typeof inner === "number" ? inner : performance.now() - t0);
    }
    const s = summarize(xs);
    lines.push(`| ${label} | ${s.median.toFixed(1)} ms | ${s.min.toFixed(1)} – ${s.max.toFixed(1)} ms |`);
  }
} finally {
  await treesRemoved();
  rmSync(home, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
}
console.log(`| piece (${FILES} files) | median | min – max (n=${REPS}) |\n|---|--:|---|\n${lines.join("\n")}`);
console.log(`load average ${load} before, ${loadAverage()} after`);
