// Event bodies packed with a fixed list of JSON fragments (schema version 7, ADR 0082): the text
// a reader gets is byte for byte the text written, whatever the text; SQL unpacks as JS does (the
// open-time check); a token no list names is damage; a ledger of version 6 opens at 7 with its
// rows untouched; and the list itself cannot change unnoticed (it is part of the file format).
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { eventJson, type VouchEvent } from "../../src/engine/events.ts";
import { FRAGMENT_TOKENS, pack, PACKED, unpack, unpackSql, UnknownTokenError } from "../../src/ledger/event-fragments.ts";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { quickCheck } from "../../src/ledger/integrity.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/ledger/migrations.ts";
import { digestOf, HEADERLESS } from "../../src/ledger/stored-text.ts";
import { fullRun, RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

const fragments = FRAGMENT_TOKENS.map((f) => f.fragment);
/** Texts made of fragments, pieces of them and hostile characters, so matches overlap and abut. */
const piece = fc.oneof(
  fc.constantFrom(...fragments),
  fc.constantFrom(...fragments).chain((f) => fc.nat(f.length).map((n) => f.slice(0, n))),
  fc.constantFrom(...fragments).chain((f) => fc.nat(f.length).map((n) => f.slice(n))),
  fc.constantFrom('"', ",", "{", "}", ":", "\\u0004", "\u0001" + "a".repeat(64) + "\u0002", "__proto__"),
  fc.string(),
);
const textOfPieces = fc.array(piece, { maxLength: 12 }).map((p) => p.join(""));

describe("pack and unpack", () => {
  test("the list is the one ledgers were written with: distinct tokens, each fragment holds a quote and no control character", () => {
    // Changing, reordering or removing a fragment changes what every packed ledger reads as.
    // Appending to the extended list is the only edit allowed; then update this digest.
    expect(digestOf(JSON.stringify(FRAGMENT_TOKENS))).toBe("e3ba66c6ed4f2ee7f3a373376ef86bf4faad86b45de5c6f13b2d685fe716da45");
    expect(new Set(FRAGMENT_TOKENS.map((f) => f.token)).size).toBe(FRAGMENT_TOKENS.length);
    expect(new Set(fragments).size).toBe(fragments.length);
    for (const f of fragments) {
      expect(f).toContain('"');
      expect(f).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  test("property: unpack(pack(text)) is the text, never longer; a text holding a token's character is not packed", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          textOfPieces,
          fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"),
        ),
        (text) => {
          const packed = pack(text);
          if (/[\u0004-\u001f]/.test(text)) return expect(packed).toBeNull();
          expect(packed).not.toBeNull();
          expect(packed!.length).toBeLessThanOrEqual(text.length);
          expect(unpack(packed!)).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("property: SQL unpacks as JS does (the open-time check reads what readers read)", () => {
    const db = new Database(":memory:");
    try {
      const q = db.query(`SELECT ${unpackSql("?1")} AS t`);
      fc.assert(
        fc.property(textOfPieces, (text) => {
          const packed = pack(text);
          if (packed === null) return;
          expect((q.get(packed) as { t: string }).t).toBe(text);
        }),
        { numRuns: 300 },
      );
    } finally {
      db.close();
    }
  });

  test("a token no list names, or a lone U+0004, is refused", () => {
    expect(() => unpack("\u0004~")).toThrow(UnknownTokenError);
    expect(() => unpack("x\u0004")).toThrow(UnknownTokenError);
    expect(() => unpack("\u0004\u0005")).toThrow(UnknownTokenError);
  });

  test("every event of a full run is stored packed, and shorter than its text", () => {
    for (const e of fullRun().events) {
      const text = eventJson(e);
      expect(unpack(pack(text)!)).toBe(text);
    }
  });
});

describe("in a ledger", () => {
  function crafted(body: string, blob?: string): { file: string; home: string; cleanup(): void } {
    const t = tempHome();
    const l = openLedger({ home: t.home });
    const s = new RunScript("r-crafted-01");
    s.started({});
    l.write(s.events);
    l.close();
    const file = ledgerFile(t.home);
    const db = new Database(file);
    db.run("DROP TRIGGER events_no_update");
    db.query("UPDATE events SET body = ? WHERE seq = 0").run(body);
    if (blob !== undefined) db.query("INSERT INTO blobs (digest, body) VALUES (?, ?)").run("e".repeat(64), blob);
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

  test("an event or a blob holding a token vouch never wrote: damage at open, and a LedgerError when read", () => {
    for (const [i, [body, blob]] of [
      [`${PACKED},"inputs":{}\u0004~}`, undefined],
      [`${PACKED},"inputs":\u0001${"e".repeat(64)}\u0002}`, `${PACKED}{"a":1\u0004~}`],
    ].entries()) {
      const l = crafted(body!, blob);
      try {
        expect(() => check(l.file), `case ${i}`).toThrow(/is not the JSON vouch wrote/);
      } finally {
        l.cleanup();
      }
    }
    // Changed after the open-time check (or past its size bound): the reader says damaged.
    const t = tempHome();
    try {
      const opened = openLedger({ home: t.home });
      const s = new RunScript("r-crafted-02");
      s.started({});
      opened.write(s.events);
      const db = new Database(ledgerFile(t.home));
      db.run("DROP TRIGGER events_no_update");
      db.query("UPDATE events SET body = ? WHERE seq = 0").run(`${PACKED},"inputs":{}\u0004~}`);
      db.close();
      try {
        expect(() => opened.runEvents("r-crafted-02")).toThrow(/damaged.*unknown token/);
      } finally {
        opened.close();
      }
    } finally {
      t.cleanup();
    }
  });

  test("the open-time check reads packed events in chunks: a broken one after 4,096 sound ones is found, in another run too", () => {
    const t = tempHome();
    try {
      const l = openLedger({ home: t.home });
      for (const run of ["r-chunk-a", "r-chunk-b"]) {
        const s = new RunScript(run);
        s.started({});
        for (let i = 0; i < 2500; i++) s.nodeStarted({ node: `n${i}` }, "script");
        l.write(s.events);
      }
      l.close();
      const file = ledgerFile(t.home);
      expect(() => check(file)).not.toThrow();
      const db = new Database(file);
      db.run("DROP TRIGGER events_no_update");
      db.run(`UPDATE events SET body = body || '\u0004~' WHERE run_id = 'r-chunk-b' AND seq = 2400`);
      db.close();
      expect(() => check(file)).toThrow(/event 2400 of run r-chunk-b is not the JSON vouch wrote/);
    } finally {
      t.cleanup();
    }
  });

  test("a ledger of version 6 opens at 7: its rows untouched and read as before, sittings_by_time gone, a new session packed", () => {
    const home = tempHome();
    try {
      const old = openLedger({ home: home.home, migrations: MIGRATIONS.slice(0, 6) });
      const first = fullRun("r-six-0001");
      old.write(first.events);
      const before = { events: old.eventsAfter("r-six-0001", -1, 10_000).map((e) => e.text), summary: old.runSummary("r-six-0001") };
      old.close();
      const raw = (file: string) => {
        const db = new Database(file, { readonly: true });
        try {
          return db.query("SELECT session, body FROM events ORDER BY seq").all() as { session: number; body: string }[];
        } finally {
          db.close();
        }
      };
      const rowsBefore = raw(ledgerFile(home.home));
      expect(rowsBefore.every((r) => r.body.startsWith(HEADERLESS))).toBe(true);

      const migrated = openLedger({ home: home.home });
      expect(migrated.eventsAfter("r-six-0001", -1, 10_000).map((e) => e.text)).toEqual(before.events);
      expect(JSON.stringify(migrated.runSummary("r-six-0001"))).toBe(JSON.stringify(before.summary));
      const resumed = new RunScript("r-six-0001", first.seq);
      resumed.clock = first.clock;
      resumed.started({ resumed: true });
      resumed.nodeStarted({ node: "build" }, "script");
      resumed.finished({ node: "build" }, "passed", { output: { big: "b".repeat(3000) } });
      resumed.runFinished("passed");
      migrated.write(resumed.events);
      const all: VouchEvent[] = [...first.events, ...resumed.events];
      expect(migrated.eventsAfter("r-six-0001", -1, 10_000).map((e) => e.text)).toEqual(all.map(eventJson));
      migrated.close();

      const rowsAfter = raw(ledgerFile(home.home));
      expect(rowsAfter.slice(0, rowsBefore.length)).toEqual(rowsBefore);
      expect(rowsAfter.slice(rowsBefore.length).every((r) => r.session === 2 && r.body.startsWith(PACKED))).toBe(true);
      const db = new Database(ledgerFile(home.home), { readonly: true });
      expect(db.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
      expect(db.query("SELECT name FROM sqlite_master WHERE name = 'sittings_by_time'").all()).toEqual([]);
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      db.close();
    } finally {
      home.cleanup();
    }
  });
});
