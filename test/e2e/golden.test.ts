// The refactor guard: the NDJSON of the shipped demo and of the e2e fixture
// graphs, run through dist/vouch --json, must stay what it was. Volatile fields
// (run ids, times, durations, pids, temporary paths) are normalized; events of
// concurrent work (map branches, parallel nodes) are compared lane by lane, each
// lane in its own order, because the interleaving between lanes is the OS's.
// Regenerate the files under test/e2e/golden/ with
//   UPDATE_GOLDEN=1 node_modules/.bin/bun --bun vitest run test/e2e/golden.test.ts
// only for a behaviour change made on purpose, in a commit that says why.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_ARGS, E2E_GRAPHS, ROOT, ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

const GOLDEN = join(import.meta.dirname, "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("golden");
});
afterAll(() => dir.cleanup());

/** Fields whose value is a measured time: any number there becomes 0. */
const TIMED = /(^|_)ms$|^pid$/;

function normalizeString(s: string, paths: [string, string][]): string {
  let out = s;
  for (const [from, to] of paths) out = out.split(from).join(to);
  // Temporary folders vouch makes (handover files) and run ids.
  return out.replace(/vouch-[A-Za-z0-9]{6}/g, "vouch-XXXXXX").replace(/\b\d{8}-\d{6}-[0-9a-f]{4}\b/g, "<RUN>");
}

function normalize(value: unknown, paths: [string, string][], key = ""): unknown {
  if (typeof value === "string") return key === "t" ? "<T>" : normalizeString(value, paths);
  if (typeof value === "number") {
    if (TIMED.test(key) && key !== "limit") return 0;
    // A sum of costs may round differently when branches finish in another order.
    return key === "cost_usd" ? Math.round(value * 1e6) / 1e6 : value;
  }
  if (Array.isArray(value)) return value.map((v) => normalize(v, paths, key));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "seq" || k === "run") continue; // seq depends on the interleaving; one run per stream
      // A cap.overrun's actual is measured when the cap is on time.
      out[k] = k === "actual" && ["wall", "idle"].includes(String((value as Record<string, unknown>).cap)) ? 0 : normalize(v, paths, k);
    }
    return out;
  }
  return value;
}

/** The lane an event belongs to: a map branch, a node, or the run itself. */
function laneOf(e: Record<string, unknown>): string {
  const b = e.branch as { map: string; index: number } | undefined;
  if (b) return `branch ${b.map}[${String(b.index).padStart(6, "0")}]`;
  if (typeof e.node === "string") return `node ${e.node}`;
  return "run";
}

/** The normalized events grouped by lane (lanes sorted by name, each kept in order). */
function canonical(stdout: string, paths: [string, string][]): string {
  const events = parseNdjson(stdout).map((e) => normalize(e, paths) as Record<string, unknown>);
  const lanes = new Map<string, string[]>();
  for (const e of events) {
    const lane = laneOf(e);
    if (!lanes.has(lane)) lanes.set(lane, []);
    lanes.get(lane)!.push(JSON.stringify(e));
  }
  const names = [...lanes.keys()].sort();
  return names.map((n) => lanes.get(n)!.join("\n")).join("\n") + "\n";
}

interface Case {
  name: string;
  args: (root: string) => string[];
  env?: (root: string) => Record<string, string>;
}

const CASES: Case[] = [
  { name: "demo", args: () => ["run", ...DEMO_ARGS, "--json"] },
  { name: "scripts-pass", args: () => ["run", join(E2E_GRAPHS, "scripts-pass.yaml"), "--json"] },
  { name: "scripts-fail", args: () => ["run", join(E2E_GRAPHS, "scripts-fail.yaml"), "--json"] },
  { name: "scripts-error", args: () => ["run", join(E2E_GRAPHS, "scripts-error.yaml"), "--json"] },
  // PATH holds no claude here: the agent's harness is unavailable (an error, exit 3).
  { name: "agent-budget", args: () => ["run", join(E2E_GRAPHS, "agent-budget.yaml"), "--json"], env: () => ({ PATH: "/usr/bin:/bin" }) },
  {
    name: "side-effects",
    args: (root) => ["run", join(E2E_GRAPHS, "side-effects.yaml"), "--json", "-i", `marks=${mkdirIn(root, "marks")}`],
    env: () => ({ VOUCH_COMMAND: JSON.stringify(["sh", "-c", "echo hi"]) }),
  },
  {
    name: "injection",
    args: (root) => ["run", join(E2E_GRAPHS, "injection.yaml"), "--json", "-i", "note=$(touch pwned) `id` ; -rf", "-i", `out_dir=${mkdirIn(root, "seen")}`],
    env: () => ({ VOUCH_COMMAND: JSON.stringify(["sh", "-c", 'cat >/dev/null; echo \'{"title": "a -- \\"quoted\\" title"}\'']) }),
  },
];

function mkdirIn(root: string, name: string): string {
  const p = join(root, name);
  mkdirSync(p, { recursive: true });
  return p;
}

describe("the NDJSON of the demo and the e2e fixtures is unchanged (golden files)", () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const root = join(dir.path, c.name);
      mkdirSync(root, { recursive: true });
      const r = await vouch(c.args(root), { home: join(root, "home"), cwd: ROOT, ...(c.env ? { env: c.env(root) } : {}) });
      const paths: [string, string][] = [
        [realpathSync(root), "<TMP>"],
        [root, "<TMP>"],
        [ROOT, "<ROOT>"],
      ];
      const got = `exit ${r.code}\nstderr ${JSON.stringify(normalizeString(r.stderr, paths))}\n${canonical(r.stdout, paths)}`;
      const file = join(GOLDEN, `${c.name}.ndjson`);
      if (UPDATE || !existsSync(file)) {
        if (!UPDATE) throw new Error(`${file} is missing: run with UPDATE_GOLDEN=1 to create it`);
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(file, got);
      }
      expect(got).toBe(readFileSync(file, "utf8"));
    });
  }
});
