// What a map of replayed sittings costs beyond its work, as counts (issue 20:
// 10,000 replayed sittings in 2.5 s and 100 MB): `vouch run --json` driven
// in-process through main(), with the real ledger, on the benchmark's graph.
import { afterAll, describe, expect, test } from "vitest";
import { Database } from "bun:sqlite";
import { heapStats } from "bun:jsc";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { ledgerFile } from "../../src/ledger/home.ts";
import { BlobStore, type StoredEventRow } from "../../src/ledger/blob-store.ts";
import { COLLECT_EVERY_EVENTS, heapCollector, YOUNG_EVERY_EVENTS } from "../../src/cli/heap-collect.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const GRAPH = join(ROOT, "bench", "graphs", "sched.yaml");
const temp = mkdtempSync(join(tmpdir(), "vouch-replay-costs-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function runMap(
  items: number,
  home: string,
  onWrite?: (text: string) => void,
): Promise<{ code: number; writes: string[]; err: string }> {
  const file = join(temp, `items-${items}.txt`);
  writeFileSync(file, Array.from({ length: items }, (_, i) => `item-${i}`).join("\n") + "\n");
  const writes: string[] = [];
  let err = "";
  const io: CliIO = {
    out: (t) => {
      writes.push(t);
      onWrite?.(t);
    },
    err: (t) => void (err += t),
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env: { VOUCH_HOME: home, PATH: process.env.PATH },
    cwd: temp,
    streams: process,
  };
  const code = await main(["run", GRAPH, "--json", "-i", `items=@${file}`], io);
  return { code, writes, err };
}

describe("a map of 1,000 replayed sittings", () => {
  test("--json writes each committed batch at once, and each line is the text the ledger stored", async () => {
    const home = join(temp, "ndjson");
    const r = await runMap(1000, home);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.writes.join("").split("\n");
    expect(lines.pop()).toBe("");
    // Seven events a branch (each sitting's attempt.judged among them, ADR 0068) and four of the run.
    expect(lines).toHaveLength(7004);
    // Before: one write per event (7,004). A batch commits at most 256 events (the sink's
    // maxBatch), and run.started / run.finished commit alone: about 7004 / 256 + 4 writes.
    expect(r.writes.length).toBeLessThanOrEqual(40);
    const db = new Database(ledgerFile(home), { readonly: true });
    try {
      // The text each row gives back (stored without its header, long values once: ADR 0077).
      const blobs = new BlobStore(db);
      const rows = db.query("SELECT run_id, seq, t, type, body FROM events ORDER BY seq").all() as StoredEventRow[];
      const bodies = rows.map((row) => blobs.eventText(row));
      expect(lines).toEqual(bodies);
    } finally {
      db.close();
    }
  });

  test("a finished branch leaves at most 4 objects behind (its result for the map's output), not its session or ledger state", async () => {
    // Live objects after a full collection, at the moment the map's own node.finished is
    // written: every branch has finished, the map's results are still held.
    const liveAtMapEnd = async (items: number) => {
      let objects = 0;
      const r = await runMap(items, join(temp, `heap-${items}`), (t) => {
        if (objects === 0 && t.includes('"type":"node.finished","node":"each"')) {
          Bun.gc(true);
          objects = heapStats().objectCount;
        }
      });
      expect(r.code).toBe(0);
      expect(objects).toBeGreaterThan(0);
      return objects;
    };
    await liveAtMapEnd(50); // warm: modules, compiled code, caches
    const small = await liveAtMapEnd(300);
    const large = await liveAtMapEnd(1500);
    // Before: 6.6 per branch under bun, 13 under vitest (its session in the run context, its
    // round in the ledger writer, their keys); now its result record, output and item: ~2.7 (~3.2).
    expect((large - small) / 1200).toBeLessThan(4);
  });
});

describe("the session's heap collector (src/cli/heap-collect.ts)", () => {
  test("collects once per COLLECT_EVERY_EVENTS events shown, whatever the batch sizes", () => {
    let collections = 0;
    const seen = heapCollector(COLLECT_EVERY_EVENTS, () => collections++);
    // 10,000 replayed sittings: 60,004 events in batches of 256 (before attempt.judged; now 70,004); a collection at each
    // 40th batch (10,240 events since the last).
    for (let i = 0; i < 60_004; i += 256) seen(Math.min(256, 60_004 - i));
    expect(collections).toBe(5);
    seen(1);
    expect(collections).toBe(5);
    const single = heapCollector(3, () => collections++);
    for (let i = 0; i < 7; i++) single(1);
    expect(collections).toBe(7);
  });

  test("collects the young generation once per YOUNG_EVERY_EVENTS events between full ones (ADR 0084)", () => {
    let full = 0;
    let young = 0;
    const seen = heapCollector(
      COLLECT_EVERY_EVENTS,
      () => full++,
      YOUNG_EVERY_EVENTS,
      () => young++,
    );
    // 10,000 replayed sittings: 70,004 events in batches of 256.
    for (let i = 0; i < 70_004; i += 256) seen(Math.min(256, 70_004 - i));
    expect(full).toBe(6);
    // A young collection per 1,024 events (four batches) except where a full one falls: 68 − 6.
    expect(young).toBe(62);
    const small = heapCollector(
      10,
      () => full++,
      4,
      () => young++,
    );
    for (let i = 0; i < 10; i++) small(1);
    expect([full, young]).toEqual([7, 64]);
  });
});
