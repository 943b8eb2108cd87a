// A ledger file someone crafted (security review of ADR 0077): holes that multiply (slices of
// slices: 20 per level), a blob that holds itself, a blob whose text is not what its name is the
// digest of, a hole with no blob. Reading is bounded by counts, never left to run: each blob is
// read once per expansion, the size is known before any text is built, and the open-time check
// parses each event with its holes as placeholders, never expanded.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "vitest";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { quickCheck } from "../../src/ledger/integrity.ts";
import {
  DamagedBlobError,
  digestOf,
  expand,
  HEADERLESS,
  MAX_EXPANDED,
  MissingBlobError,
  verifiedGetter,
  withPlaceholders,
} from "../../src/ledger/stored-text.ts";
import { RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

const hole = (digest: string, slice?: [number, number]) => `\u0001${digest}${slice ? `:${slice[0]}:${slice[1]}` : ""}\u0002`;

/** Level 0 is a 2,000-character string; each level above is 20 holes of the level below. */
function bomb(levels: number): { blobs: Map<string, string>; top: string } {
  const blobs = new Map<string, string>();
  let body = JSON.stringify("x".repeat(2000));
  for (let level = 0; level <= levels; level++) {
    const digest = digestOf(body);
    blobs.set(digest, body);
    body = `[${Array(20).fill(hole(digest)).join(",")}]`;
  }
  return { blobs, top: body };
}

describe("expand on a crafted file", () => {
  test("holes that multiply are refused from their lengths alone: each blob read once, no text built", () => {
    const { blobs, top } = bomb(8);
    let reads = 0;
    const get = (d: string) => (reads++, blobs.get(d));
    expect(() => expand(top, get)).toThrow(DamagedBlobError);
    expect(() => expand(top, get)).toThrow(`expands past ${MAX_EXPANDED} characters`);
    // Two calls, nine blobs each: a fill per hole would read 20 + 400 + … of them.
    expect(reads).toBe(18);
  });

  test("a sound text with one blob many times is read once and given back whole", () => {
    const { blobs, top } = bomb(2);
    let reads = 0;
    const out = expand(top, (d) => (reads++, blobs.get(d)));
    // Each of the three once to size the text, once to fill it.
    expect(reads).toBe(6);
    expect(JSON.parse(out).flat(2)).toHaveLength(8000);
  });

  test("a blob holding itself, a chain deeper than compact makes, a missing blob: typed errors, no stack overflow", () => {
    const self = digestOf("x");
    expect(() => expand(hole(self), () => `[${hole(self)}]`)).toThrow("holds a reference to itself");
    const chain = new Map<string, string>();
    let body = '"end"';
    for (let i = 0; i < 5000; i++) {
      const d = digestOf(`${i}`);
      chain.set(d, body);
      body = `[${hole(d)}]`;
    }
    expect(() => expand(body, (d) => chain.get(d))).toThrow(/nested deeper than/);
    expect(() => expand(hole("a".repeat(64)), () => undefined)).toThrow(MissingBlobError);
  });

  test("a blob whose text does not hash to its name is refused (each digest hashed once)", () => {
    let reads = 0;
    const good = '"kept"';
    const get = verifiedGetter((d) => (reads++, d === digestOf(good) ? good : '"forged"'));
    expect(expand(hole(digestOf(good)), get)).toBe(good);
    expect(() => expand(hole("b".repeat(64)), get)).toThrow("does not hold the text whose digest names it");
  });

  test("placeholders keep the shape, name every digest, read no blob", () => {
    const names = new Set<string>();
    const text = withPlaceholders(`{"a":${hole("c".repeat(64))},"b":"${hole("d".repeat(64), [1, 2])}"}`, names);
    expect(JSON.parse(text)).toEqual({ a: 0, b: "0" });
    expect([...names]).toEqual(["c".repeat(64), "d".repeat(64)]);
  });
});

describe("the open-time check on a crafted ledger", () => {
  function ledgerWith(body: (blobs: Database) => string): { file: string; cleanup(): void } {
    const t = tempHome();
    const l = openLedger({ home: t.home });
    const s = new RunScript("r-crafted-01");
    s.started({});
    l.write(s.events);
    l.close();
    const file = ledgerFile(t.home);
    const db = new Database(file);
    // The crafter edits the file as any SQLite client can: the append-only triggers go first.
    for (const { name } of db.query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'").all() as {
      name: string;
    }[])
      db.run(`DROP TRIGGER "${name}"`);
    db.query("UPDATE events SET body = ? WHERE seq = 0").run(body(db));
    db.close();
    return { file, cleanup: t.cleanup };
  }
  const put = (db: Database, text: string) => {
    db.query("INSERT OR IGNORE INTO blobs (digest, body) VALUES (?, ?)").run(digestOf(text), text);
    return digestOf(text);
  };
  const check = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      quickCheck(db, file);
    } finally {
      db.close();
    }
  };

  test("a bomb is sound JSON in shape: the check passes without expanding it (a reader then refuses it)", () => {
    const l = ledgerWith((db) => {
      const { blobs, top } = bomb(8);
      for (const b of blobs.values()) put(db, b);
      return `${HEADERLESS},"inputs":${top}}`;
    });
    try {
      expect(() => check(l.file)).not.toThrow();
      const opened = openLedger({ home: l.file.slice(0, l.file.lastIndexOf("/")) });
      try {
        expect(() => opened.runEvents("r-crafted-01")).toThrow(/expands past/);
      } finally {
        opened.close();
      }
    } finally {
      l.cleanup();
    }
  });

  test("a hole with no blob, a blob whose text does not hash to its name, a blob that is no JSON: damage at open", () => {
    const cases: ((db: Database) => string)[] = [
      () => `${HEADERLESS},"inputs":${hole("e".repeat(64))}}`,
      (db) => {
        db.query("INSERT INTO blobs (digest, body) VALUES (?, ?)").run("f".repeat(64), '"not its text"');
        return `${HEADERLESS},"inputs":${hole("f".repeat(64))}}`;
      },
      (db) => `${HEADERLESS},"inputs":${hole(put(db, "{not json"))}}`,
    ];
    for (const [i, body] of cases.entries()) {
      const l = ledgerWith(body);
      try {
        expect(() => check(l.file), `case ${i}`).toThrow(/is not the JSON vouch wrote/);
      } finally {
        l.cleanup();
      }
    }
  });
});
