// kill -9 against a real writer process: whatever a consumer was shown is in
// the ledger afterwards, batches are all-or-nothing, and the file stays sound.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { join } from "node:path";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

const CHILD = join(import.meta.dirname, "child-writer.ts");

/** Starts the writer, reads its stdout until `enough(lines)` holds, then kill -9. */
async function runAndKill(run: string, mode: "sink" | "bulk", enough: (lines: string[]) => boolean): Promise<string[]> {
  const child = Bun.spawn([process.execPath, CHILD, t.home, run, mode], { stdout: "pipe", stderr: "pipe" });
  const lines: string[] = [];
  const decoder = new TextDecoder();
  let partial = "";
  const reader = child.stdout.getReader();
  while (!enough(lines)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`writer exited early: ${await new Response(child.stderr).text()}`);
    partial += decoder.decode(value, { stream: true });
    const parts = partial.split("\n");
    partial = parts.pop()!;
    lines.push(...parts);
  }
  child.kill("SIGKILL");
  await child.exited;
  // Lines already in the pipe were forwarded before the kill: count them too.
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    partial += decoder.decode(value, { stream: true });
  }
  lines.push(...partial.split("\n").filter((l) => l !== ""));
  expect(child.signalCode).toBe("SIGKILL");
  return lines;
}

function integrity(): string {
  const db = new Database(ledgerFile(t.home));
  const result = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  db.close();
  return result;
}

describe("kill -9 of a process writing the ledger", () => {
  test("every event forwarded to a consumer before the kill is in the ledger (6 kills at different points)", async () => {
    const targets = [1, 40, 333, 900, 2500, 6000];
    for (const [i, target] of targets.entries()) {
      const run = `r-kill-${i}`;
      const forwarded = (await runAndKill(run, "sink", (lines) => lines.length >= target)).map(Number);
      expect(forwarded.length).toBeGreaterThanOrEqual(target);
      const ledger = openLedger({ home: t.home });
      const stored = new Set(ledger.runEvents(run).map((e) => e.seq));
      ledger.close();
      const missing = forwarded.filter((seq) => !stored.has(seq));
      expect(missing).toEqual([]);
      // Forwarding is in seq order: what was shown is a prefix of what is stored.
      expect(forwarded).toEqual(Array.from({ length: forwarded.length }, (_, k) => k));
    }
    expect(integrity()).toBe("ok");
  }, 120_000);

  test("killed in the middle of large transactions: each batch is all or nothing, integrity_check is ok", async () => {
    for (const [i, batches] of [1, 3, 7].entries()) {
      const run = `r-bulk-${i}`;
      const lines = await runAndKill(run, "bulk", (l) => l.length >= batches);
      const committed = lines.length;
      const ledger = openLedger({ home: t.home });
      const count = ledger.runEvents(run).length;
      ledger.close();
      // run.started + whole batches of 500: never a torn batch.
      expect((count - 1) % 500).toBe(0);
      expect(count - 1).toBeGreaterThanOrEqual(committed * 500);
      expect(integrity()).toBe("ok");
    }
  }, 120_000);
});

describe("two processes writing one ledger at once (two runs in one folder)", () => {
  test("both make progress, neither fails on a busy database, and everything forwarded is stored", async () => {
    const [a, b] = await Promise.all([
      runAndKill("r-two-a", "sink", (lines) => lines.length >= 3000),
      runAndKill("r-two-b", "sink", (lines) => lines.length >= 3000),
    ]);
    const ledger = openLedger({ home: t.home });
    for (const [run, forwarded] of [
      ["r-two-a", a],
      ["r-two-b", b],
    ] as const) {
      const stored = new Set(ledger.runEvents(run).map((e) => e.seq));
      expect(forwarded.map(Number).filter((seq) => !stored.has(seq))).toEqual([]);
    }
    ledger.close();
    expect(integrity()).toBe("ok");
  }, 120_000);
});
