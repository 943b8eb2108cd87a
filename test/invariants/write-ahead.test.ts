// The ledger's promises, as counts (docs/architecture.md §8, ADR 0009, docs/profiling.md):
// no process starts while an event is queued uncommitted (write-ahead), an event is
// committed before any consumer sees it, and a node's end and the next node's start
// share one transaction instead of one each. The engine in this process, with the real
// spawn seam and the real SQLite ledger, wired as the CLI session wires them.
import { afterAll, describe, expect, test } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readGraphFile } from "../../src/cli/graph-file.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { runGraph, systemClock } from "../../src/engine/run.ts";
import { batchingSink, openLedger } from "../../src/ledger/index.ts";
import { createCommandRunner } from "../../src/spawn/command-runner.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { SpawnThreads, startOffThread } from "../../src/spawn/process/spawn-threads.ts";

const home = mkdtempSync(join(tmpdir(), "vouch-write-ahead-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ITEMS = 40;
const graphPath = join(home, "map.yaml");
writeFileSync(
  graphPath,
  `version: 1
name: write-ahead
inputs: { items: { required: true } }
concurrency: 4
nodes:
  each:
    kind: map
    over: inputs.items
    as: item
    branch:
      work: { kind: script, run: "true" }
      then: { kind: script, needs: [work], run: "true" }
  after: { kind: script, needs: [each], run: "true" }
`,
);

// The session starts scripts on spawn workers (ADR 0081, run-session.ts): there the moment that
// counts is the request's post (the child starts on the worker after it; its pid, and the
// observer's `added`, come back later, when events may rightly have been queued meanwhile).
const postedWhile: number[] = [];
let pendingNow: () => number = () => -1;
const realPost = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: never[]) {
  if ((message as { kind?: string })?.kind === "run") postedWhile.push(pendingNow());
  return realPost.call(this, message, ...rest);
};
afterAll(() => {
  Worker.prototype.postMessage = realPost;
});

describe.each([
  { where: "on this thread", offThread: false },
  { where: "on spawn workers, as the session starts them", offThread: true },
])("write-ahead and group commit (real ledger, real processes) $where", ({ offThread }) => {
  test("every process starts with nothing queued; transactions stay near one per branch", async () => {
    const ledger = openLedger({ home });
    const supervisor = new ProcessSupervisor();
    const threads = offThread ? startOffThread(supervisor, new SpawnThreads()) : null;
    postedWhile.length = 0;
    let transactions = 0;
    const committed = new Set<number>();
    const forwardedUncommitted: number[] = [];
    const sink = batchingSink(
      (events) => {
        transactions++;
        ledger.write(events);
        for (const e of events) committed.add(e.seq);
      },
      (e: VouchEvent) => {
        if (!committed.has(e.seq)) forwardedUncommitted.push(e.seq);
      },
    );
    const pendingAtStart: number[] = [];
    supervisor.setBarrier(() => sink.flush());
    // Told right after each spawn, with nothing awaited in between: what was queued as it started.
    if (offThread) pendingNow = () => sink.pending;
    else supervisor.observe({ added: () => pendingAtStart.push(sink.pending), removed: () => {} });
    const commands = createCommandRunner({ parentEnv: process.env, supervisor });
    const graph = readGraphFile(graphPath, home, {});
    const outcome = await runGraph({
      runId: offThread ? "write-ahead-2" : "write-ahead-1",
      graph: graph.graph,
      graphPath: graph.path,
      graphDigest: graph.digest,
      inputs: { items: Array.from({ length: ITEMS }, (_, i) => `item-${i}`).join("\n") },
      baseDir: home,
      concurrency: 4,
      version: "test",
      ports: { commands, clock: systemClock, ledger: sink },
    });
    sink.close();
    await commands.close();
    const events = ledger.runEvents(offThread ? "write-ahead-2" : "write-ahead-1");
    threads?.close();
    ledger.close();

    expect(outcome.status).toBe("passed");
    // Two processes per branch (work, then) and one for `after`, each started with nothing queued.
    const atStart = offThread ? postedWhile : pendingAtStart;
    expect(atStart).toHaveLength(ITEMS * 2 + 1);
    expect(atStart.every((n) => n === 0)).toBe(true);
    if (threads) expect(threads.counts).toEqual({ requests: ITEMS * 2 + 1, replies: ITEMS * 2 + 1, fallbacks: 0 });
    expect(forwardedUncommitted).toEqual([]);
    // Each branch emits branch.started, node.started and node.finished twice, branch.finished:
    // six events. A commit for each node.started and node.finished (the old way) would be
    // 4 per branch; grouped, a branch costs at most one commit before each of its two processes
    // (fewer when processes ask to start in the same turn: they share one, ADR 0032; how many
    // do depends on timing, so the bound stays at one per start).
    expect(events.length).toBeGreaterThanOrEqual(ITEMS * 6);
    expect(transactions).toBeLessThanOrEqual(ITEMS * 2 + 10);
    expect(transactions).toBeLessThan(events.length / 2);
  });
});
