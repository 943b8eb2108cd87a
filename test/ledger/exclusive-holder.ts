// A child process that holds the ledger file exclusively for a moment, as SQLite
// does when the last writer closes (it checkpoints and removes the -wal) or a
// writer restarts the write-ahead log: says "locked", holds HOLD_MS, lets go, exits.
// Usage: bun exclusive-holder.ts LEDGER_FILE HOLD_MS
import { Database } from "bun:sqlite";
import { writeSync } from "node:fs";

const [file, holdMs] = process.argv.slice(2) as [string, string];
const db = new Database(file, { readwrite: true });
db.run("PRAGMA locking_mode = EXCLUSIVE");
db.run("BEGIN EXCLUSIVE");
writeSync(1, "locked\n");
setTimeout(() => {
  db.run("COMMIT");
  db.close();
  process.exit(0);
}, Number(holdMs));
