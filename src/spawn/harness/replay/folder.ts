// What the replay harness has read of its fixture folder, kept for the next
// sittings of the run: a map of 10,000 branches on one fixture looked up to 16
// names and read the file 10,000 times (issue 20). A folder's listing answers
// which candidate names exist, and a fixture's lines are kept, each only while a
// fresh stat of the folder or file (device, inode, size, modification and change
// times) is what it was when read. Nothing is kept of what was modified in the
// SETTLED_MS before it was read: file times are coarse, and a write in the same
// tick as the read could leave the same stat behind; a later write moves the
// modification time to "now", away from a settled one, and one that puts the old
// modification time back (cp -p, tar, rsync -t) still moves the change time, which
// is compared too (test/harness/replay-folder.test.ts). Such a folder or file is
// looked up and read as before, each sitting. Where the change time is coarse or
// missing (FAT), such a rewrite in the same tick is not seen (docs/LIMITATIONS.md).
import { readdirSync, statSync, type Stats } from "node:fs";
import { basename } from "node:path";
import { findFixture, probeDisk, type FileProbe, type FixtureLookup } from "./fixtures.ts";
import { editsPathFor, readEdits, type ReplayEdit } from "./edits.ts";
import { readLimited, type LimitedRead } from "../../read-limited.ts";

/** How long a folder or file must have been left alone before what was read of it is kept. */
export const SETTLED_MS = 2_000;
/** Fixture contents kept at once (a map with a fixture per branch reads each once). */
export const KEEP_FIXTURES = 16;

type Kind = "file" | "other" | "ask";

interface Stamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const stampOf = (st: Stats): Stamp => ({ dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
const same = (a: Stamp, b: Stats): boolean =>
  a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** A stat, or null when there is nothing to stat (or it cannot be): the caller then does what it did before. */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** What a lookup found, and whether its edits sidecar is known to be absent. */
export type FolderLookup = FixtureLookup & { noSidecar?: true };

/** Per listing (a new one is made when the folder changes): the `node.index` stems its names
 *  begin with, and the lookups found with no branch form, by node, attempt and round. */
interface ListingMemo {
  stems: Set<string>;
  shared: Map<string, FolderLookup>;
}
const memos = new WeakMap<Map<string, Kind>, ListingMemo>();
const STEM = /^([^.]+\.\d+)\./;

/** The lookups every branch of `node` shares in this listing, or null when this branch has a
 *  name of its own there (`node.I.…`: each branch form starts so) and must look for itself. */
function sharedLookups(names: Map<string, Kind>, id: string, branchIndex: number | undefined): Map<string, FolderLookup> | null {
  let memo = memos.get(names);
  if (memo === undefined) {
    const stems = new Set<string>();
    for (const name of names.keys()) {
      const m = STEM.exec(name);
      if (m) stems.add(m[1]!);
    }
    memo = { stems, shared: new Map() };
    memos.set(names, memo);
  }
  return branchIndex !== undefined && memo.stems.has(`${id}.${branchIndex}`) ? null : memo.shared;
}

export class FixtureFolder {
  private readonly listings = new Map<string, { stamp: Stamp; names: Map<string, Kind> }>();
  private readonly contents = new Map<string, { stamp: Stamp; lines: string[] }>();
  /** The stat isFolder() just took, for the lookup that follows it at once (one stat, not two). */
  private fresh: { path: string; st: Stats | null } | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether `path` is a folder (one stat; no entry, or one vouch may not look at, is none). */
  isFolder(path: string): boolean {
    const st = statOrNull(path);
    this.fresh = { path, st };
    return st?.isDirectory() ?? false;
  }

  /** findFixture(), answered from the folder's listing while it holds. */
  find(dir: string, id: string, attempt: number, branchIndex?: number, round?: number): FolderLookup {
    // A node outside a sub-graph whose branch has no fixture of its own finds what every such
    // branch finds: the listing's answer is kept with it (ADR 0092: a map of 10,000 sittings
    // built and looked up 16 candidate names a sitting).
    const names = id.includes("/") ? null : this.listing(dir);
    const shared = names ? sharedLookups(names, id, branchIndex) : null;
    const key = `${id}\u0000${attempt}\u0000${round ?? ""}`;
    const kept = shared?.get(key);
    this.fresh = null;
    if (kept) return { ...kept };
    // The listing just read serves the probes (null: ask the disk), as it did when read at the first.
    let listed: Map<string, Kind> | null | undefined = id.includes("/") ? undefined : names;
    let asked = false;
    const probe: FileProbe = (folder, name) => {
      if (listed === undefined) listed = this.listing(folder);
      const kind = listed?.get(name);
      if (listed === null || kind === "ask") {
        asked = true;
        return probeDisk(folder, name);
      }
      return kind === "file";
    };
    const lookup: FolderLookup = findFixture(dir, id, attempt, branchIndex, round, probe);
    this.fresh = null;
    if ("found" in lookup && listed && !listed.has(basename(editsPathFor(lookup.found)))) lookup.noSidecar = true;
    // What the disk was asked is not the listing's to answer next time.
    if (shared && "found" in lookup && !asked) shared.set(key, { ...lookup });
    return lookup;
  }

  /** The fixture's lines (readLimited's errors as they are). */
  lines(path: string, read: LimitedRead): string[] {
    const st = statOrNull(path);
    const kept = this.contents.get(path);
    if (kept && st && same(kept.stamp, st)) return kept.lines;
    const lines = new TextDecoder().decode(readLimited(path, read)).split("\n");
    this.contents.delete(path);
    if (st && st.isFile() && this.settled(st)) {
      if (this.contents.size >= KEEP_FIXTURES) this.contents.delete(this.contents.keys().next().value!);
      this.contents.set(path, { stamp: stampOf(st), lines });
    }
    return lines;
  }

  /** readEdits(), skipped when the listing the fixture was found in has no sidecar. */
  edits(lookup: FolderLookup & { found: string }, maxBytes: number): ReplayEdit[] {
    return lookup.noSidecar ? [] : readEdits(lookup.found, maxBytes);
  }

  /** The names in `dir` and what each is, or null: ask the disk. */
  private listing(dir: string): Map<string, Kind> | null {
    const st = this.fresh?.path === dir ? this.fresh.st : statOrNull(dir);
    if (!st || !st.isDirectory()) return null;
    const kept = this.listings.get(dir);
    if (kept && same(kept.stamp, st)) return kept.names;
    this.listings.delete(dir);
    if (!this.settled(st)) return null;
    let names: Map<string, Kind>;
    try {
      names = new Map(
        readdirSync(dir, { withFileTypes: true }).map((d) => [
          d.name,
          d.isFile() ? "file" : d.isSymbolicLink() || !d.isDirectory() ? "ask" : "other",
        ]),
      );
    } catch {
      return null;
    }
    this.listings.set(dir, { stamp: stampOf(st), names });
    return names;
  }

  private settled(st: Stats): boolean {
    return st.mtimeMs < this.now() - SETTLED_MS;
  }
}
