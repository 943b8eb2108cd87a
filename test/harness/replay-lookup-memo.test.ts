// The replay harness's fixture lookup kept per listing (ADR 0092): a map's branches with no
// fixture of their own all find the node's fixture, so the lookup (16 candidate names built and
// looked up a sitting) is made once per listing, node, attempt and round; it gives what a lookup
// on the disk gives, whatever the folder holds, and a changed folder is a new listing.
import { afterEach, describe, expect, test, vi } from "vitest";

const counted = vi.hoisted(() => ({ lookups: 0 }));
vi.mock("../../src/spawn/harness/replay/fixtures.ts", async (importOriginal) => {
  const m = await importOriginal<typeof import("../../src/spawn/harness/replay/fixtures.ts")>();
  return {
    ...m,
    findFixture: (...a: Parameters<typeof m.findFixture>) => {
      counted.lookups++;
      return m.findFixture(...a);
    },
  };
});

import fc from "fast-check";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FixtureFolder } from "../../src/spawn/harness/replay/folder.ts";
import { findFixture, probeDisk } from "../../src/spawn/harness/replay/fixtures.ts";
import { editsPathFor } from "../../src/spawn/harness/replay/edits.ts";

const temps: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "vouch-replay-memo-"));
  temps.push(d);
  return d;
};
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** Settled: what a checked-out fixture folder looks like (folder.ts keeps nothing younger than 2 s). */
const age = (path: string) => {
  const t = new Date(Date.now() - 60_000);
  utimesSync(path, t, t);
};

describe("replay: the fixture lookup kept per listing", () => {
  test("1,000 branches on one node's fixture: one lookup, not one per sitting (main: 1,000)", () => {
    const dir = temp();
    writeFileSync(join(dir, "work.jsonl"), "{}\n");
    age(join(dir, "work.jsonl"));
    age(dir);
    const folder = new FixtureFolder();
    counted.lookups = 0;
    for (let i = 0; i < 1000; i++) {
      expect(folder.isFolder(dir)).toBe(true);
      expect(folder.find(dir, "work", 1, i)).toEqual({ found: join(dir, "work.jsonl"), noSidecar: true });
    }
    expect(counted.lookups).toBeLessThanOrEqual(1);
    // A branch with a fixture of its own looks for itself; a new file is a new listing.
    writeFileSync(join(dir, "work.7.jsonl"), "{}\n");
    age(join(dir, "work.7.jsonl"));
    age(dir);
    expect(folder.find(dir, "work", 1, 7)).toEqual({ found: join(dir, "work.7.jsonl"), noSidecar: true });
    expect(folder.find(dir, "work", 1, 8)).toEqual({ found: join(dir, "work.jsonl"), noSidecar: true });
  });

  test("a name the listing cannot answer (a symbolic link) is asked of the disk each time: its target may go", () => {
    const dir = temp();
    const elsewhere = temp();
    writeFileSync(join(elsewhere, "target.jsonl"), "{}\n");
    symlinkSync(join(elsewhere, "target.jsonl"), join(dir, "work.jsonl"));
    age(dir);
    const folder = new FixtureFolder();
    folder.isFolder(dir);
    expect(folder.find(dir, "work", 1, 0)).toMatchObject({ found: join(dir, "work.jsonl") });
    rmSync(join(elsewhere, "target.jsonl")); // the folder holding the link is unchanged
    folder.isFolder(dir);
    expect(folder.find(dir, "work", 1, 1)).toMatchObject({ missing: expect.any(String) });
  });

  // Names of every form for two nodes, branches 0–2, attempts 1–2, rounds 1–2; some folders,
  // symbolic links (to a file or nowhere) and edits sidecars among them.
  const stem = fc.tuple(
    fc.constantFrom("work", "other"),
    fc.option(fc.nat(2), { nil: undefined }),
    fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
    fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
  );
  const entry = fc.record({
    stem,
    ext: fc.constantFrom(".jsonl", ".json"),
    what: fc.constantFrom("file", "file", "file", "folder", "link", "dangling", "sidecar"),
  });
  const query = fc.record({
    node: fc.constantFrom("work", "other", "none"),
    attempt: fc.integer({ min: 1, max: 2 }),
    branch: fc.option(fc.nat(3), { nil: undefined }),
    round: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
  });
  const nameOf = ([node, index, round, attempt]: [string, number | undefined, number | undefined, number | undefined], ext: string) =>
    [node, index, round === undefined ? undefined : `r${round}`, attempt === undefined ? undefined : `a${attempt}`]
      .filter((p) => p !== undefined)
      .join(".") + ext;

  test("property: every lookup is the one on the disk, found path and sidecar alike", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.array(query, { minLength: 1, maxLength: 30 }), (entries, queries) => {
        const dir = temp();
        const made = new Set<string>();
        for (const e of entries) {
          const path = join(dir, nameOf(e.stem, e.ext));
          if (made.has(path)) continue;
          made.add(path);
          if (e.what === "folder") mkdirSync(path);
          else if (e.what === "link") {
            writeFileSync(`${path}.target`, "{}\n");
            symlinkSync(`${path}.target`, path);
          } else if (e.what === "dangling") symlinkSync(join(dir, "nowhere"), path);
          else {
            writeFileSync(path, "{}\n");
            if (e.what === "sidecar") writeFileSync(editsPathFor(path), "[]\n");
          }
        }
        age(dir);
        const folder = new FixtureFolder();
        for (const q of queries) {
          folder.isFolder(dir);
          const got = folder.find(dir, q.node, q.attempt, q.branch, q.round);
          const want = findFixture(dir, q.node, q.attempt, q.branch, q.round, probeDisk);
          const { noSidecar, ...lookup } = got;
          expect(lookup).toEqual(want);
          if ("found" in want && noSidecar) expect(existsSync(editsPathFor(want.found))).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });
});
