// What a run leaves in the ledger (issue 29): its bytes, and how many times one
// output is stored. Measured from the ledger file whatever the binary does:
//  - bytes: the live pages of ledger.sqlite, WAL included — `VACUUM INTO` a copy
//    (pages freed or superseded drop out) and its size;
//  - copies: a graph whose script prints 4 KiB of fresh random base64 (unique to
//    this run) that the next node needs; the copies of that text are counted in
//    every text and blob value of every table. SQLite spills a value over 4 KiB
//    onto overflow pages, so the file's raw bytes hold no whole copy: the values
//    are read through SQL instead. An output stored compressed or outside the
//    ledger counts 0, and the caller reports that rather than "once".
import { Database } from "bun:sqlite";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectExit, measure, tempFolder, VOUCH, vouchEnv } from "./lib/measure.ts";

const LEDGER = "ledger.sqlite";

/** Bytes of the ledger's live pages (a vacuumed copy of it, WAL folded in). */
export function ledgerBytes(home: string): number {
  const copy = tempFolder("vouch-bench-ledger-copy-");
  try {
    const db = new Database(join(home, LEDGER), { readonly: true });
    const file = join(copy.path, "copy.sqlite");
    db.run("VACUUM INTO ?", [file]);
    db.close();
    return statSync(file).size;
  } finally {
    copy.remove();
  }
}

/** Occurrences of `text` in every text or blob value of every table of the ledger. */
export function copiesIn(home: string, text: string): number {
  const db = new Database(join(home, LEDGER), { readonly: true });
  try {
    let n = 0;
    const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      const cols = db.query(`SELECT name FROM pragma_table_info(?)`).all(name) as { name: string }[];
      for (const c of cols) {
        const col = `CAST("${c.name.replaceAll('"', '""')}" AS TEXT)`;
        const row = db
          .query(`SELECT coalesce(sum((length(${col}) - length(replace(${col}, ?1, ''))) / length(?1)), 0) AS n FROM "${name}"`)
          .get(text) as { n: number };
        n += row.n;
      }
    }
    return n;
  } finally {
    db.close();
  }
}

const ONE_OUTPUT = `version: 1
name: one-output
inputs:
  out: { required: true }
nodes:
  make:
    kind: script
    run: head -c 3072 /dev/urandom | base64 -w0 | tee "$VOUCH_INPUT_OUT/marker"
  use:
    kind: script
    needs: [make]
    run: "true"
`;

/** Runs the one-output graph in a fresh ledger: the copies of its 4 KiB output stored there. */
export async function outputCopies(): Promise<{ copies: number; outputBytes: number }> {
  const dir = tempFolder("vouch-bench-output-copies-");
  try {
    const graph = join(dir.path, "one-output.yaml");
    writeFileSync(graph, ONE_OUTPUT);
    expectExit(
      await measure([VOUCH, "run", graph, "--json", "-i", `out=${dir.path}`], { cwd: dir.path, env: vouchEnv(dir.path) }),
      0,
      "vouch run (one output)",
    );
    const marker = readFileSync(join(dir.path, "marker"), "utf8");
    if (marker.length !== 4096) throw new Error(`the output marker is ${marker.length} bytes, expected 4096`);
    return { copies: copiesIn(join(dir.path, "ledger"), marker), outputBytes: marker.length };
  } finally {
    dir.remove();
  }
}

if (import.meta.main) {
  const c = await outputCopies();
  console.log(`one ${c.outputBytes}-byte output: ${c.copies} copies in the ledger`);
}
