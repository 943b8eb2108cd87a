// The crash test of issue 6, shared by the two crash files: a graph of slow
// script nodes (a DAG and a map) run by dist/vouch, killed -9 at seeded random
// moments, resumed (and killed again) until a session exits 0; then the
// invariants below are checked on every run the loop made.
//
// Each execution of a node runs step.sh, which appends its pid to
// pids/<run> and one line to effects/<run>/<node>[-<item>] (its side effect),
// then sleeps. What a kill -9 of vouch leaves behind is decided by `crash`:
//   "vouch"  — only vouch dies; its children run on as orphans (their groups
//              are theirs) and end by themselves; the resume starts at once.
//   "reboot" — vouch and every recorded process group die together, as in a
//              power cut; nothing of the killed session runs on.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { eventually, groupAlive } from "../spawn/helpers.ts";
import { integrityCheck, ledgerEvents, startVouch, type Project } from "./vouch-process.ts";

export const STEP_SH = `#!/bin/sh
# One execution of a node: record the process (group leader: vouch starts argv
# commands directly, detached), do the side effect, work a little, print $1.
name="$VOUCH_NODE"
if [ -n "$VOUCH_ITEM_FILE" ]; then name="$name-$(cat "$VOUCH_ITEM_FILE")"; fi
mkdir -p "pids" "effects/$VOUCH_RUN_ID"
echo $$ >> "pids/$VOUCH_RUN_ID"
echo $$ >> "effects/$VOUCH_RUN_ID/$name"
sleep 0.05
[ -n "$1" ] && echo "$1"
exit 0
`;

export const SLOW_GRAPH = `version: 1
name: slow-crash
concurrency: 3
nodes:
  plan: { kind: script, argv: [sh, ./step.sh, '{"items": [1, 2, 3, 4]}'], output: { format: json } }
  lint: { kind: script, needs: [plan], argv: [sh, ./step.sh] }
  build: { kind: script, needs: [plan], argv: [sh, ./step.sh] }
  test: { kind: script, needs: [build], argv: [sh, ./step.sh] }
  package: { kind: script, needs: [test], argv: [sh, ./step.sh] }
  docs: { kind: script, needs: [plan], argv: [sh, ./step.sh] }
  each:
    kind: map
    needs: [plan]
    over: nodes.plan.output.items
    max_concurrency: 2
    branch:
      probe: { kind: script, argv: [sh, ./step.sh] }
      record: { kind: script, needs: [probe], argv: [sh, ./step.sh] }
  publish: { kind: script, needs: [lint, package, docs, each], argv: [sh, ./step.sh] }
`;

/** Side-effect file names of one complete run: 7 nodes, 4 items × 2 branch nodes. */
export const EFFECT_NAMES = [
  ...["plan", "lint", "build", "test", "package", "docs", "publish"],
  ...[1, 2, 3, 4].flatMap((i) => [`probe-${i}`, `record-${i}`]),
].sort();

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedFromEnv(): number {
  const fixed = Number(process.env.VOUCH_CRASH_SEED);
  return Number.isInteger(fixed) ? fixed : Math.floor(Math.random() * 2 ** 31);
}

export interface LoopResult {
  kills: number;
  /** Run ids, one per crash cycle (each ended with a session exiting 0). */
  runs: string[];
  /** Kills that landed before the session's run.started was committed. */
  killsBeforeStart: number;
  sessions: number;
}

function readPids(p: Project, runId: string): number[] {
  const f = join(p.dir, "pids", runId);
  return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean).map(Number) : [];
}

function newestRun(p: Project, known: Set<string>): { id: string; status: string } | null {
  if (!existsSync(join(p.home, "ledger.sqlite"))) return null;
  const ledger = openLedger({ home: p.home });
  try {
    return ledger.listRuns().find((r) => !known.has(r.id)) ?? null;
  } finally {
    ledger.close();
  }
}

/** Kills -9 at random moments (see below) until `kills`
 *  kills have landed; a session that ends by itself must exit 0 and closes its
 *  cycle (the next cycle starts a new run). The last cycle is finished unkilled. */
export async function crashLoop(
  p: Project,
  opts: { seed: number; kills: number; maxDelayMs: number; crash: "vouch" | "reboot" },
): Promise<LoopResult> {
  const rnd = random(opts.seed);
  const known = new Set<string>();
  const result: LoopResult = { kills: 0, runs: [], killsBeforeStart: 0, sessions: 0 };
  let current: string | null = null;
  for (let sessions = 0; ; sessions++) {
    if (sessions > opts.kills * 4 + 20) throw new Error(`seed ${opts.seed}: no end after ${sessions} sessions`);
    const killing = result.kills < opts.kills;
    const args = current === null ? ["run", "graph.yaml", "--json"] : ["resume", "last", "--json"];
    const s = startVouch(p, args);
    result.sessions++;
    // One kill in five lands in start-up (up to 300 ms after the spawn, often before
    // run.started); the others up to maxDelayMs after run.started, among the nodes.
    const early = rnd() < 0.2;
    const delay = Math.floor(rnd() * (early ? 300 : opts.maxDelayMs));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const kill = () => s.proc.kill("SIGKILL");
    if (killing && early) timer = setTimeout(kill, delay);
    else if (killing)
      s.waitFor('"run.started"').then(
        () => (timer = setTimeout(kill, delay)),
        () => undefined,
      );
    const r = await s.done;
    clearTimeout(timer);
    if (r.signal === "SIGKILL") {
      result.kills++;
      if (!r.stdout.includes('"run.started"')) result.killsBeforeStart++;
      const run = newestRun(p, known);
      current = run?.id ?? null;
      if (opts.crash === "reboot" && current !== null) {
        for (const pid of readPids(p, current)) {
          try {
            process.kill(-pid, "SIGKILL");
          } catch {
            // that group had ended
          }
        }
      }
      // Killed after its run.finished was committed: that run is done.
      if (run?.status !== "passed") continue;
    } else if (r.code !== 0) throw new Error(`seed ${opts.seed}: vouch ${args.join(" ")} exited ${r.code}\n${r.stderr}`);
    current ??= newestRun(p, known)!.id;
    result.runs.push(current);
    known.add(current);
    current = null;
    if (result.kills >= opts.kills) return result;
  }
}

type Key = string;
const keyOf = (e: { node: string; branch?: { map: string; index: number } }): Key => (e.branch ? `${e.node}#${e.branch.index}` : e.node);

/** The invariants, for one run the loop finished (see ADR 0009 for why these exactly). */
export async function checkRun(p: Project, runId: string, seed: number): Promise<void> {
  const where = `seed ${seed}, run ${runId}`;
  // Orphans of killed sessions end by themselves (their work is bounded); wait, then count.
  const pids = readPids(p, runId);
  expect(await eventually(() => pids.every((pid) => !groupAlive(pid)), 10_000), `${where}: a process outlived the run`).toBe(true);

  const events: VouchEvent[] = ledgerEvents(p, runId);
  expect(
    events.map((e) => e.seq),
    where,
  ).toEqual(events.map((_, i) => i));
  const sessionOf: number[] = [];
  let session = -1;
  const finishedSessions = new Set<number>();
  for (const e of events) {
    if (e.type === "run.started") session++;
    if (e.type === "run.finished") finishedSessions.add(session);
    sessionOf.push(session);
  }
  expect(events.at(-1), where).toMatchObject({ type: "run.finished", status: "passed", exit_code: 0 });

  const started = new Map<Key, number>();
  const passedAt = new Map<Key, number[]>();
  const open = new Map<string, number>(); // key@session@attempt -> session, until finished
  for (const [i, e] of events.entries()) {
    if (e.type === "node.started") {
      const k = keyOf(e);
      // Nothing that passed runs again.
      expect(passedAt.get(k) ?? [], `${where}: ${k} started again after it passed`).toEqual([]);
      started.set(k, (started.get(k) ?? 0) + 1);
      open.set(`${k}@${sessionOf[i]}@${e.attempt}`, sessionOf[i]!);
    } else if (e.type === "node.finished") {
      const k = keyOf(e);
      expect(e.status, `${where}: ${k}`).toBe("passed");
      passedAt.set(k, [...(passedAt.get(k) ?? []), e.seq]);
      open.delete(`${k}@${sessionOf[i]}@${e.attempt}`);
    }
  }
  // Every node and branch node passed exactly once.
  const nodeKeys = [
    ...["plan", "lint", "build", "test", "package", "docs", "each", "publish"],
    ...[0, 1, 2, 3].flatMap((i) => [`probe#${i}`, `record#${i}`]),
  ].sort();
  expect([...passedAt.keys()].sort(), where).toEqual(nodeKeys);
  for (const [k, seqs] of passedAt) expect(seqs, `${where}: ${k} passed more than once`).toHaveLength(1);
  // An execution without a node.finished belongs to a session that was killed.
  for (const s of open.values()) expect(finishedSessions.has(s), `${where}: session ${s} finished with a node still open`).toBe(false);

  // Side effects: every execution that wrote a line had its node.started committed
  // first (write-ahead), and the passed one wrote: 1 <= lines <= starts. A start
  // without a line is a kill between the commit and the process start (vouch writes
  // the handover files in between) or, under "reboot", a process killed before it wrote.
  const dir = join(p.dir, "effects", runId);
  expect(readdirSync(dir).sort(), where).toEqual(EFFECT_NAMES);
  for (const name of EFFECT_NAMES) {
    const m = /^(.*)-(\d)$/.exec(name);
    const k = m ? `${m[1]}#${Number(m[2]) - 1}` : name;
    const lines = readFileSync(join(dir, name), "utf8").split("\n").filter(Boolean).length;
    expect(lines, `${where}: ${name} lines vs starts`).toBeGreaterThanOrEqual(1);
    expect(lines, `${where}: ${name} lines vs starts`).toBeLessThanOrEqual(started.get(k) ?? 0);
  }
  expect(integrityCheck(p)).toBe("ok");
}
