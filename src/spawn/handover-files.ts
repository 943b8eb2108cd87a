// The data a check or script is handed (docs/architecture.md §7): the run state, and in a
// map branch the item, as JSON files named by VOUCH_STATE_FILE, VOUCH_ITEM_FILE and (for a
// check) VOUCH_OUTPUT_FILE, and each run input as a file of its own named by
// VOUCH_INPUT_<NAME>_FILE (small ones also as VOUCH_INPUT_<NAME>, input-env.ts) — never on
// the command line.
//
// One private folder per runner (mode 0700, made on first use, removed by close() or, on
// any other way out, by the owner's exit hook), and in it one read-only file per distinct
// content: the state changes only when a node finishes, an item is the same for every
// command of its branch, the inputs for the whole run. A folder, a chmod, several writes and
// a recursive rm per command were a fifth of the CPU of a map of 500 `true` scripts
// (docs/profiling.md); now a command whose data was handed before costs a stat per file.
// A file a command changed anyway (root ignores 0400) is noticed by that stat and written
// afresh before the next command gets it: every command reads what the engine handed it.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandInput } from "../engine/ports.ts";
import { digest, identityAt, inputFileName, removeFile, rewriteInPlace, unchanged, vacate, type WrittenFile } from "./handover-disk.ts";
import { inputEnv } from "./input-env.ts";

export interface Handover {
  /** VOUCH_STATE_FILE, VOUCH_ITEM_FILE when there is an item, VOUCH_OUTPUT_FILE when there
   *  is an output, VOUCH_INPUT_<NAME>_FILE (and, when small, VOUCH_INPUT_<NAME>) per input. */
  vars: Record<string, string>;
  /** Lets go of the files (the command has finished); they may be kept for the next command. */
  release(): void;
}

/** Who removes the folder if vouch ends another way than close() (the session's ProcessSupervisor). */
export interface FolderOwner {
  trackFolder(dir: string): () => Promise<void>;
}

export interface HandoverData {
  state: unknown;
  item?: unknown;
  /** For a check: the node's own output. */
  output?: unknown;
  inputs?: readonly CommandInput[];
}

interface Stored extends WrittenFile {
  refs: number;
}

/** Released files kept for the next command with the same content (a node's checks, a branch's
 *  commands). Bounded, so a long run keeps at most this many stale states on disk. */
export const KEEP_RELEASED = 16;
/** From this many released files kept, a new file is the oldest of them rewritten: a map's
 *  commands release as many as the next ones write, so the keep stays between this and
 *  KEEP_RELEASED and no file is made or unlinked per command (ADR 0032). */
const RECYCLE_FROM = KEEP_RELEASED / 2;

export class HandoverStore {
  private dir: string | null = null;
  private untrack: (() => Promise<void>) | null = null;
  private readonly files = new Map<string, Stored>();
  /** Released entries, oldest first (a Map keeps insertion order). */
  private readonly idle = new Map<string, Stored>();
  private serial = 0;
  /** Files written since the store was made (tests bound it). */
  writes = 0;
  /** Bytes (UTF-16 units) of those files (tests bound it). */
  bytes = 0;
  /** Of those, files made new rather than a released one rewritten (tests bound it). */
  made = 0;
  /** Renames since the store was made (tests bound it: a released state rewritten is not renamed). */
  renames = 0;
  private inputsJson: { of: unknown; key: string; text: string } | null = null;
  private inputsCache: { inputs: readonly CommandInput[]; vars: Record<string, string>; keys: string[]; folder: string } | null = null;

  constructor(
    private readonly owner: FolderOwner,
    private readonly tmpRoot: string = tmpdir(),
  ) {}

  acquire(data: HandoverData): Handover {
    const held: string[] = [];
    const take = (kind: string, text: string, name?: string): string => {
      const key = `${kind}:${digest(text)}`;
      held.push(key);
      return this.use(key, text, name);
    };
    try {
      const vars: Record<string, string> = { VOUCH_STATE_FILE: take("state", this.stateText(data, held)) };
      if (data.item !== undefined) vars.VOUCH_ITEM_FILE = take("item", JSON.stringify(data.item));
      // A check sees the node's own output, to test the model's claims against the files.
      if (data.output !== undefined) vars.VOUCH_OUTPUT_FILE = take("output", JSON.stringify(data.output));
      if (data.inputs && data.inputs.length > 0) Object.assign(vars, this.inputVars(data.inputs, held));
      let released = false;
      return {
        vars,
        release: () => {
          if (released) return;
          released = true;
          for (const key of held) this.letGo(key);
        },
      };
    } catch (e) {
      for (const key of held) this.letGo(key);
      throw e;
    }
  }

  /** Removes the folder and everything in it. Later acquires make a new one. */
  async close(): Promise<void> {
    const untrack = this.untrack;
    this.dir = null;
    this.untrack = null;
    this.files.clear();
    this.idle.clear();
    this.inputsCache = null;
    this.inputsJson = null;
    await untrack?.();
  }

  /** The state file's text. A map branch's state names the run's inputs by a file,
   *  `inputs_file` (one read-only JSON file of every input, written once per run and
   *  shared by every branch), instead of holding a copy: a map of N items over an
   *  N-line input wrote N copies of it, N² bytes in all (issue 29, ADR 0054). */
  private stateText(data: HandoverData, held: string[]): string {
    const state = data.state;
    if (data.item === undefined || !isRecord(state) || !Object.hasOwn(state, "inputs")) return JSON.stringify(state ?? null);
    const { inputs, ...rest } = state;
    // Keyed by the inputs object itself: the engine hands every branch the run's one object,
    // so the JSON and its digest are made once, not once per branch.
    let cached = this.inputsJson;
    if (cached === null || cached.of !== inputs) {
      const text = JSON.stringify(inputs ?? null);
      cached = this.inputsJson = { of: inputs, key: `run-inputs:${digest(text)}`, text };
    }
    held.push(cached.key);
    return JSON.stringify({ inputs_file: this.use(cached.key, cached.text), ...rest });
  }

  /** The run's inputs: one file per input (the stems are unique: validation refuses two names
   *  that upper-case alike), in a folder named by their digest, written once per run. */
  private inputVars(inputs: readonly CommandInput[], held: string[]): Record<string, string> {
    let cache = this.inputsCache;
    if (cache === null || cache.inputs !== inputs) {
      const folder = `inputs-${digest(inputs.map((i) => `${i.stem}\0${i.text.length}\0${i.text}`).join("\0"))}`;
      const keys = inputs.map(({ stem }) => `input:${folder}/${stem}`);
      const vars = inputEnv(inputs, (stem) => join(this.folder(), folder, inputFileName(stem)));
      cache = this.inputsCache = { inputs, vars, keys, folder };
    }
    const { keys, folder } = cache;
    inputs.forEach(({ stem, text }, i) => {
      held.push(keys[i]!);
      this.use(keys[i]!, text, join(folder, inputFileName(stem)));
    });
    return cache.vars;
  }

  /** The path of a file holding `text`: the one handed before if it is unchanged, else one
   *  written. `name`: where it must be (an input's file); else the file is named by its kind and
   *  a serial, so a released one is rewritten where it is, with no rename (ADR 0075). */
  private use(key: string, text: string, name?: string): string {
    const known = this.files.get(key);
    if (known && unchanged(known)) {
      if (known.refs++ === 0) this.idle.delete(key);
      return known.path;
    }
    if (known) this.forget(key, known);
    const stored = this.write(key, name, text);
    // The commands still holding the changed file let go of this key too.
    stored.refs = (known?.refs ?? 0) + 1;
    this.files.set(key, stored);
    return stored.path;
  }

  /** A known file that changed under vouch: its name is given up (never rewritten: a command
   *  may have put a link there), so the next file has a name of its own; one still held stays
   *  for its holders until the folder goes. */
  private forget(key: string, known: Stored): void {
    this.files.delete(key);
    this.idle.delete(key);
    if (known.refs === 0) removeFile(known.path, this.dir);
  }

  private write(key: string, name: string | undefined, text: string): Stored {
    const kind = key.slice(0, key.indexOf(":"));
    const dir = this.folder();
    const path = name === undefined ? null : join(dir, name);
    this.writes++;
    this.bytes += text.length;
    const recycled = this.recycle(kind, path, text);
    if (recycled !== null) return recycled;
    // Written aside, then renamed: a command still reading an earlier file keeps its own copy.
    const aside = this.writeAside(text);
    this.made++;
    const to = path ?? this.freshName(kind);
    this.parentOf(to);
    renameSync(aside, to);
    this.renames++;
    return { path: to, refs: 0, identity: identityAt(to) };
  }

  /** An input's folder, made right before a rename into it: a removal just before may have vacated it (ADR 0090). */
  private parentOf(path: string): void {
    const slash = path.lastIndexOf("/");
    if (path.slice(0, slash) !== this.dir) mkdirSync(path.slice(0, slash), { recursive: true, mode: 0o700 });
  }

  /** A name of `kind` nothing is at yet in the folder (a command may have put something at one). */
  private freshName(kind: string): string {
    for (;;) {
      const candidate = `${this.dir}/${kind}-${this.serial++}.json`;
      if (!existsSync(candidate)) return candidate;
    }
  }

  /** A new file under a name nothing is at: the folder is the commands' user's, so a link or
   *  FIFO may sit at the next name (written through, it changed a file elsewhere; opened, it
   *  waited for a reader for ever). Such a name is passed over. */
  private writeAside(text: string): string {
    for (;;) {
      const aside = `${this.dir}/.w${this.serial++}`;
      try {
        writeFileSync(aside, text, { mode: 0o400, flag: "wx" });
        return aside;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
    }
  }

  /** When the keep is half full, the oldest released file becomes the new one: rewritten in
   *  place, instead of a new file made and the old one unlinked. Making and removing a file per
   *  command was most of the handover's cost on ext4 (an inode allocated and freed each time,
   *  ADR 0032); no command holds a released file. A file of the same kind keeps its name (no
   *  rename, ADR 0075); one of another kind, or an input's, is renamed to its place. Null: write
   *  a new file. */
  private recycle(kind: string, path: string | null, text: string): Stored | null {
    if (this.idle.size < RECYCLE_FROM) return null;
    // The oldest of the same kind if any (a state for a state: about the same size, so no
    // blocks freed or added), else the oldest.
    let found: [string, Stored] | undefined;
    const prefix = `${kind}:`;
    for (const entry of this.idle) {
      found ??= entry;
      if (entry[0].startsWith(prefix)) {
        found = entry;
        break;
      }
    }
    const [oldKey, oldest] = found!;
    this.idle.delete(oldKey);
    this.files.delete(oldKey);
    // Only the very file vouch wrote, untouched since: a command that made it writable (its ctime
    // moved) may have left a process holding a descriptor, which would write into the next data.
    // rewriteInPlace checks that on the descriptor it opened (no stat of the path first, ADR 0085).
    const identity = rewriteInPlace(oldest, text);
    if (identity === null) {
      removeFile(oldest.path, this.dir);
      return null;
    }
    const stays = path === null && oldKey.startsWith(prefix);
    if (stays) return { path: oldest.path, refs: 0, identity };
    const to = path ?? this.freshName(kind);
    this.parentOf(to);
    renameSync(oldest.path, to);
    vacate(oldest.path, this.dir);
    this.renames++;
    return { path: to, refs: 0, identity: identityAt(to) };
  }

  private letGo(key: string): void {
    const stored = this.files.get(key);
    if (!stored || stored.refs === 0 || --stored.refs > 0) return;
    this.idle.set(key, stored);
    if (this.idle.size <= KEEP_RELEASED) return;
    const [oldKey, oldest] = this.idle.entries().next().value as [string, Stored];
    this.idle.delete(oldKey);
    this.files.delete(oldKey);
    removeFile(oldest.path, this.dir);
  }

  /** Made and handed to its owner with no await in between: a process.exit in such a gap
   *  (a second Ctrl-C) would find a folder on disk that nobody knows to remove. */
  private folder(): string {
    if (this.dir !== null) return this.dir;
    const dir = mkdtempSync(join(this.tmpRoot, "vouch-"));
    this.untrack = this.owner.trackFolder(dir);
    try {
      chmodSync(dir, 0o700);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    this.dir = dir;
    return dir;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
