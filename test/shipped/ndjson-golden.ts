// The NDJSON a user's script reads from the shipped graphs and the end-to-end
// fixtures, normalized so that two runs of the same code compare equal: clock
// readings, run ids, temp paths and timings are masked; events are grouped per
// node (parallel branches may interleave differently) and the run-level events
// keep their order. Refactors must leave this unchanged (test/shipped/ndjson-golden.test.ts).
//
// Regenerate the goldens from a binary (e.g. one built from main before a refactor):
//   node_modules/.bin/bun test/shipped/ndjson-golden.ts dist/vouch
import { cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { branchKey, nodeKey, type VouchEvent } from "../../src/engine/events.ts";
import { ROOT } from "../graph/binary.ts";
import { commitFolder } from "../workspace/git-repo.ts";

export const GOLDEN_DIR = join(import.meta.dirname, "golden");
const SAMPLE_REPO = join(ROOT, "examples", "sample-repo");
const E2E = join(ROOT, "test", "e2e", "graphs");

export interface GoldenCase {
  name: string;
  /** Arguments after `run`; `<REPO>` is a fresh copy of examples/sample-repo, also the working directory. */
  args: string[];
  /** Variables set for vouch on top of the fixed ones (PATH may be replaced). */
  env?: Record<string, string>;
  /** Folders made inside <REPO> before the run (for inputs naming them). */
  dirs?: string[];
  /** <REPO> is a git repository with everything committed (a graph with worktrees). */
  git?: boolean;
}

/** The tasks graphs/parallel-implement.replay/ was recorded for, in order. */
export const PARALLEL_TASKS = [
  "Make TtlCache.get honour ttlMs",
  "Make slugify keep digits",
  "Make the tests pass",
  "Make TtlCache.get delete expired entries",
];

export const CASES: GoldenCase[] = [
  {
    name: "finding-verifier",
    args: [
      join(ROOT, "graphs", "finding-verifier.yaml"),
      "--harness",
      "replay",
      "-i",
      "findings=@<REPO>/REVIEW.md",
      "-i",
      "project_dir=<REPO>",
    ],
  },
  {
    name: "step-runner",
    args: [join(ROOT, "graphs", "step-runner.yaml"), "--harness", "replay", "-i", "task=Make TtlCache.get honour ttlMs"],
    git: true,
  },
  {
    name: "parallel-review",
    args: [
      join(ROOT, "graphs", "parallel-review.yaml"),
      "--harness",
      "replay",
      "-i",
      "files=src/cache.js\nsrc/duration.js\n\nsrc/slug.js\n",
    ],
  },
  { name: "checks-only", args: [join(ROOT, "graphs", "checks-only.yaml")] },
  {
    name: "parallel-implement",
    args: [
      join(ROOT, "graphs", "parallel-implement.yaml"),
      "--harness",
      "replay",
      "-i",
      `tasks=${PARALLEL_TASKS.join("\n")}\n`,
      "-i",
      "project_dir=<REPO>",
    ],
    git: true,
  },
  { name: "scripts-pass", args: [join(E2E, "scripts-pass.yaml")] },
  { name: "scripts-fail", args: [join(E2E, "scripts-fail.yaml")] },
  { name: "scripts-error", args: [join(E2E, "scripts-error.yaml")] },
  // PATH holds no claude here: the harness's program is missing, refused before the run starts
  // (exit 2, no event; it was an error at run time, exit 3, before issue 27 item 18).
  { name: "agent-budget", args: [join(E2E, "agent-budget.yaml")], env: { PATH: "/usr/bin:/bin" } },
  {
    name: "side-effects",
    args: [join(E2E, "side-effects.yaml"), "-i", "marks=<REPO>/marks"],
    dirs: ["marks"],
    env: { VOUCH_COMMAND: JSON.stringify(["sh", "-c", "echo hi"]) },
  },
  {
    name: "injection",
    args: [join(E2E, "injection.yaml"), "-i", "note=$(touch pwned) `id` ; -rf", "-i", "out_dir=<REPO>/seen"],
    dirs: ["seen"],
    env: { VOUCH_COMMAND: JSON.stringify(["sh", "-c", 'cat >/dev/null; echo \'{"title": "a -- \\"quoted\\" title"}\'']) },
  },
];

export interface Golden {
  exitCode: number;
  /** Events of the run itself (run.*, a run-wide cap.overrun), in order. */
  run: unknown[];
  /** Every other event by node (nodeKey) or, for branch.*, by branch (branchKey), each in its own order. */
  nodes: Record<string, unknown[]>;
}

const TIMING = new Set(["t", "wall_ms", "duration_ms", "elapsed_ms"]);

function maskText(text: string, repo: string, home: string, runId: string): string {
  return (runId === "" ? text : text.split(runId).join("<RUN>"))
    .split(repo)
    .join("<REPO>")
    .split(home)
    .join("<HOME>")
    .split(ROOT)
    .join("<ROOT>")
    .replace(/\/tmp\/vouch-[^\s/"']+/g, "<TMP>")
    .replace(/\b\d+(\.\d+)?\s?ms\b/g, "<MS>")
    .replace(/\b[0-9a-f]{40}\b/g, "<COMMIT>");
}

/** Masks measured times (never configured ones: `caps` keeps its values) and run-specific text. */
function mask(value: unknown, repo: string, home: string, runId: string, inCaps = false): unknown {
  if (typeof value === "string") return value === runId ? "<RUN>" : maskText(value, repo, home, runId);
  if (Array.isArray(value)) return value.map((v) => mask(v, repo, home, runId, inCaps));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "seq" || k === "run") continue;
      out[k] = TIMING.has(k) && !inCaps ? "<T>" : mask(v, repo, home, runId, inCaps || k === "caps");
    }
    return out;
  }
  return value;
}

export function normalize(events: readonly VouchEvent[], exitCode: number, repo: string, home: string): Golden {
  const runId = events[0]?.run ?? "";
  const golden: Golden = { exitCode, run: [], nodes: {} };
  for (const e of events) {
    const m = mask(e, repo, home, runId);
    const branch = "branch" in e ? e.branch : undefined;
    const key =
      "node" in e && typeof e.node === "string" ? nodeKey(e.node, branch) : branch ? `branch ${branchKey(branch.map, branch.index)}` : null;
    if (key === null) golden.run.push(m);
    else (golden.nodes[key] ??= []).push(m);
  }
  golden.nodes = Object.fromEntries(Object.entries(golden.nodes).sort(([a], [b]) => (a < b ? -1 : 1)));
  return golden;
}

/** Runs one case through `binary --json` in a fresh copy of the sample repository and a private ledger. */
export function runCase(binary: string, c: GoldenCase): Golden {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), "vouch-golden-repo-")));
  cpSync(SAMPLE_REPO, repo, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "vouch-golden-home-"));
  for (const d of c.dirs ?? []) mkdirSync(join(repo, d), { recursive: true });
  if (c.git) commitFolder(repo);
  const args = c.args.map((a) => a.split("<REPO>").join(repo));
  const r = Bun.spawnSync([binary, "run", ...args, "--json"], {
    cwd: repo,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, VOUCH_HOME: home, TZ: "UTC", LANG: "C", ...c.env },
  });
  const events = r.stdout
    .toString()
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as VouchEvent);
  return normalize(events, r.exitCode ?? -1, repo, home);
}

if (import.meta.main) {
  const binary = resolve(process.argv[2] ?? join(ROOT, "dist", "vouch"));
  mkdirSync(GOLDEN_DIR, { recursive: true });
  for (const c of CASES) {
    const g = runCase(binary, c);
    writeFileSync(join(GOLDEN_DIR, `${c.name}.json`), `${JSON.stringify(g, null, 1)}\n`);
    console.log(`${c.name}: exit ${g.exitCode}, ${g.run.length} run events, ${Object.keys(g.nodes).length} nodes`);
  }
}
