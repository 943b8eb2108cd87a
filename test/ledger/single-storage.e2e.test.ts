// Each long value once in the ledger (schema version 6, ADR 0077), through the real compiled
// binary: a script's 4 KB output that a later node consumes is in the ledger file's bytes once,
// and a map of `true` items costs a bounded number of bytes per item; what the run printed with
// --json is what the ledger gives back (`vouch watch --json`, `vouch show --json`).
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ledgerFile } from "../../src/ledger/index.ts";
import { BINARY, ensureBinary } from "../graph/binary.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

async function vouch(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: "UTC", VOUCH_HOME: t.home };
  const p = Bun.spawn([BINARY, ...args], { env, cwd: dirname(t.home), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

/** The ledger folded into its main file (a checkpoint), and the bytes SQLite uses in it. */
function checkpointed(): { bytes: Buffer; used: number } {
  const db = new Database(ledgerFile(t.home));
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const pages = (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
  const free = (db.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
  const size = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
  db.close();
  return { bytes: readFileSync(ledgerFile(t.home)), used: (pages - free) * size };
}

function occurrences(haystack: Buffer, needle: string): number {
  const n = Buffer.from(needle);
  let count = 0;
  for (let at = haystack.indexOf(n); at >= 0; at = haystack.indexOf(n, at + n.length)) count++;
  return count;
}

const REPEATS = 455; // 9-byte marker × 455 = 4,095 bytes of output
const MARKER = "QZXMARKER";

describe("a long output is stored once", () => {
  test("a script's 4 KB output, consumed by a later node: once in the ledger file, and every reader gives it back", async () => {
    const dir = dirname(t.home);
    const graph = join(dir, "marker.yaml");
    writeFileSync(
      graph,
      [
        "version: 1",
        "name: marker",
        "nodes:",
        "  make:",
        "    kind: script",
        `    run: "printf '${MARKER}%.0s' $(seq 1 ${REPEATS})"`,
        "  use:",
        "    kind: script",
        "    needs: [make]",
        `    run: "grep -c ${MARKER} \\"$VOUCH_STATE_FILE\\""`,
        "",
      ].join("\n"),
    );
    const run = await vouch(["run", graph, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const { bytes } = checkpointed();
    // Before schema 6: 1,351 (the node.finished event's output and result tail, node_results'
    // output and result_tail). A page boundary may cut one occurrence in two.
    const found = occurrences(bytes, MARKER);
    expect(found).toBeLessThanOrEqual(REPEATS);
    expect(found).toBeGreaterThanOrEqual(REPEATS - 3);

    const id = (JSON.parse(run.stdout.split("\n")[0]!) as { run: string }).run;
    const watched = await vouch(["watch", id, "--json"]);
    expect(watched.code).toBe(0);
    expect(watched.stdout).toBe(run.stdout);
    const shown = JSON.parse((await vouch(["show", id, "--json"])).stdout) as {
      nodes: { node: string; output?: unknown; attempts: { result_tail: string | null }[] }[];
    };
    const make = shown.nodes.find((n) => n.node === "make")!;
    expect(make.output).toBe(MARKER.repeat(REPEATS));
    const finished = run.stdout
      .split("\n")
      .filter((l) => l.includes('"node.finished"'))
      .map((l) => JSON.parse(l) as { node: string; result_tail?: string });
    expect(make.attempts[0]!.result_tail).toBe(finished.find((e) => e.node === "make")!.result_tail);
    expect(make.attempts[0]!.result_tail!.length).toBeGreaterThan(1024);
  }, 60_000);
});

describe("bytes per item", () => {
  async function ledgerBytesFor(items: number): Promise<number> {
    t.cleanup();
    t = tempHome();
    const dir = dirname(t.home);
    const graph = join(dir, "overhead.yaml");
    writeFileSync(
      graph,
      'version: 1\nname: overhead\ninputs:\n  items: { required: true }\nconcurrency: 4\nnodes:\n  each:\n    kind: map\n    over: inputs.items\n    as: item\n    branch:\n      work: { kind: script, run: "true" }\n',
    );
    const list = join(dir, "items.txt");
    writeFileSync(list, Array.from({ length: items }, (_, i) => String(i + 1)).join("\n"));
    const run = await vouch(["run", graph, "-i", `items=@${list}`, "--plain"]);
    expect(run.code).toBe(0);
    return checkpointed().used;
  }

  // The cost of one more item: the difference between two runs, so the schema's fixed pages do
  // not count. Schema 5's binary: 3,099 here (ADR 0077). Schema 6's and 7's, with vacuumed
  // copies of the same two runs: 1,884 and 901 (ADR 0082 packs event bodies).
  test("a map of `true` items: each more item costs the ledger at most 1,024 bytes", async () => {
    const small = await ledgerBytesFor(100);
    const large = await ledgerBytesFor(400);
    const perItem = (large - small) / 300;
    expect(perItem).toBeGreaterThan(0);
    expect(perItem).toBeLessThanOrEqual(1_024);
  }, 120_000);
});
