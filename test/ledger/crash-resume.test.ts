// The ledger under the crash test the issue asks for: a run killed -9 again
// and again, resumed each time through resumeCheck/runEvents, then finished.
// Every kill leaves an abandoned session; nothing that passed runs twice;
// seq stays contiguous across sessions; the file stays sound.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "vitest";
import { join } from "node:path";
import type { EventOf } from "../../src/engine/events.ts";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

const RUNNER = join(import.meta.dirname, "toy-runner.ts");
// Enough that 22 kills (each after 1-40 events, ~half of them node.finished) cannot finish the run.
const NODES = 400;
const KILLS = 22;

async function start(): Promise<{ child: ReturnType<typeof Bun.spawn>; lines: () => Promise<number> }> {
  const child = Bun.spawn([process.execPath, RUNNER, t.home, "r-crash", String(NODES)], { stdout: "pipe", stderr: "pipe" });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  let seen = 0;
  return {
    child,
    // Reads until at least one more line arrived; returns the count (-1 at end).
    lines: async () => {
      const { value, done } = await reader.read();
      if (done) return -1;
      seen += new TextDecoder().decode(value).split("\n").length - 1;
      return seen;
    },
  };
}

test(`kill -9 ${KILLS} times, then let it finish: ${KILLS + 1} sessions, each node passed once, contiguous seq`, async () => {
  for (let k = 0; k < KILLS; k++) {
    const { child, lines } = await start();
    // Kill at a different depth each time: after 1 to ~40 forwarded events.
    const target = 1 + ((k * 17) % 40);
    let n = 0;
    while (n >= 0 && n < target) n = await lines();
    if (n < 0) throw new Error(`runner ended early: ${await new Response(child.stderr as ReadableStream).text()}`);
    child.kill("SIGKILL");
    await child.exited;
  }
  const { child } = await start();
  expect(await child.exited).toBe(0);

  const ledger = openLedger({ home: t.home });
  const events = ledger.runEvents("r-crash");
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  const passedPerNode = new Map<string, number>();
  for (const e of events) {
    if (e.type === "node.finished" && e.status === "passed") passedPerNode.set(e.node, (passedPerNode.get(e.node) ?? 0) + 1);
  }
  expect(passedPerNode.size).toBe(NODES);
  expect([...passedPerNode.values()].every((c) => c === 1)).toBe(true);
  const summary = ledger.runSummary("r-crash");
  expect(summary.sessions).toHaveLength(KILLS + 1);
  expect(summary.sessions.slice(0, -1).every((s) => s.status === "abandoned")).toBe(true);
  expect(summary.sessions.at(-1)!.status).toBe("passed");
  expect(summary.run).toMatchObject({ status: "passed", exit_code: 0, sessions: KILLS + 1 });
  expect(events.filter((e): e is EventOf<"run.started"> => e.type === "run.started").map((e) => e.resumed)).toEqual([
    false,
    ...Array(KILLS).fill(true),
  ]);
  expect(summary.nodes.every((n) => n.status === "passed")).toBe(true);
  ledger.close();
  const db = new Database(ledgerFile(t.home), { readonly: true });
  expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  db.close();
}, 120_000);
