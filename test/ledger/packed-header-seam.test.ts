// Security review r36 (hostile ledger files): the open-time check of a packed body (schema 7,
// ADR 0082) parses `{"v":1` + the unpacked rest, not the header the reader puts back. A rest
// that continues the `1` (a digit, `.5`, `e3`) or a seq column that is not a number makes a
// text the check accepts and no reader can parse.
import { Database } from "bun:sqlite";
import { expect, test } from "vitest";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { quickCheck } from "../../src/ledger/integrity.ts";
import { PACKED, unpack } from "../../src/ledger/event-fragments.ts";
import { MAX_EXPANDED } from "../../src/ledger/stored-text.ts";
import { RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

function crafted(update: (db: Database) => void) {
  const t = tempHome();
  const l = openLedger({ home: t.home });
  const s = new RunScript("r-seam-0001");
  s.started({});
  l.write(s.events);
  l.close();
  const file = ledgerFile(t.home);
  const db = new Database(file);
  db.run("DROP TRIGGER events_no_update");
  update(db);
  db.close();
  return { file, home: t.home, cleanup: t.cleanup };
}

const check = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    quickCheck(db, file);
  } finally {
    db.close();
  }
};

test.each([
  ["a rest that continues the version's digits", (db: Database) => db.query("UPDATE events SET body = ? WHERE seq = 0").run(`${PACKED}0}`)],
  ["a rest that makes the version a fraction", (db: Database) => db.query("UPDATE events SET body = ? WHERE seq = 0").run(`${PACKED}.5}`)],
  [
    "4,096 packed rows of a NULL run (a crafted table without NOT NULL) before a broken one",
    (db: Database) => {
      db.run("CREATE TABLE ev2 (run_id TEXT, seq INTEGER, session INTEGER, type TEXT, t TEXT, body TEXT)");
      db.run("INSERT INTO ev2 SELECT run_id, seq, session, type, t, body FROM events");
      db.run("DROP TABLE events");
      db.run("ALTER TABLE ev2 RENAME TO events");
      const add = db.query("INSERT INTO events VALUES (NULL, ?, 1, 'x', 't', ?)");
      for (let i = 0; i < 4096; i++) add.run(i, `${PACKED}}`);
      db.query("UPDATE events SET body = ? WHERE run_id = 'r-seam-0001' AND seq = 0").run(`${PACKED},"inputs":{}\u0004~}`);
    },
  ],
  [
    "a seq column holding text",
    (db: Database) => {
      db.run("DROP TRIGGER IF EXISTS events_no_delete");
      db.run(`UPDATE events SET seq = 'x' WHERE seq = 0`);
    },
  ],
])("%s: damage at open, not a line no JSON reader can parse", (_what, update) => {
  const l = crafted(update);
  try {
    expect(() => check(l.file)).toThrow(/is not the JSON vouch wrote/);
  } finally {
    l.cleanup();
  }
});

test("a packed body that unpacks past the expansion bound is damage, refused before it is built (196 characters a token)", () => {
  // 1,370,000 one-character tokens of the 196-character evidence fragment: 1.3 MB stored, 268.5
  // million characters unpacked, past MAX_EXPANDED (a reader could not expand it either).
  const body = `${PACKED}${"\u0005".repeat(1_370_000)}}`;
  expect(body.length * 196).toBeGreaterThan(MAX_EXPANDED);
  const l = crafted((db) => db.query("UPDATE events SET body = ? WHERE seq = 0").run(body));
  try {
    expect(() => check(l.file)).toThrow(/is not the JSON vouch wrote/);
    expect(() => unpack(body.slice(1))).toThrow(/unpacks past the bound/);
  } finally {
    l.cleanup();
  }
});
