// What `vouch init` reads of a project: a few named files, each through the one
// bounded reader (src/spawn/read-limited.ts: regular files only, never more than
// a limit), so a package.json that is a link to /dev/zero, a FIFO, or a 2 GB
// Makefile is a note for the user, never a hang or a stack trace. Folders are
// listed with a bound too. Detection reads through this port and nothing else.
import { existsSync, opendirSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../../engine/errors.ts";
import { formatBytes, readLimited } from "../../spawn/read-limited.ts";

/** The most vouch init reads of one project file: a package.json with 10,000 scripts is ~0.5 MiB. */
export const INIT_READ_BYTES = 1024 * 1024;
/** The most entries read of one folder (.github/workflows). */
export const INIT_LIST_ENTRIES = 200;

export type FileRead = { text: string } | { missing: true } | { unreadable: string };

export interface ProjectFiles {
  /** Absolute path of the project folder (where vouch init runs). */
  readonly root: string;
  /** A file's text (UTF-8, bad bytes replaced), or why not. */
  read(rel: string): FileRead;
  /** Whether anything is at rel (a dangling link is nothing). */
  exists(rel: string): boolean;
  isDir(rel: string): boolean;
  /** Up to INIT_LIST_ENTRIES names of a folder's entries, sorted; [] when it is no folder. */
  list(rel: string): string[];
}

export function projectFiles(root: string, maxBytes = INIT_READ_BYTES): ProjectFiles {
  const at = (rel: string) => join(root, rel);
  return {
    root,
    read(rel) {
      if (!existsSync(at(rel))) return { missing: true };
      try {
        const bytes = readLimited(at(rel), {
          what: rel,
          maxBytes,
          raise: `vouch init reads at most ${formatBytes(maxBytes)} of a project file`,
        });
        return { text: new TextDecoder("utf-8", { fatal: false }).decode(bytes) };
      } catch (e) {
        if (e instanceof InputError) return { unreadable: e.message };
        return { unreadable: `cannot read ${rel}: ${(e as Error).message}` };
      }
    },
    exists: (rel) => existsSync(at(rel)),
    isDir(rel) {
      try {
        return statSync(at(rel)).isDirectory();
      } catch {
        return false;
      }
    },
    list(rel) {
      let dir: ReturnType<typeof opendirSync>;
      try {
        dir = opendirSync(at(rel));
      } catch {
        return [];
      }
      const names: string[] = [];
      try {
        for (let entry = dir.readSync(); entry !== null && names.length < INIT_LIST_ENTRIES; entry = dir.readSync()) names.push(entry.name);
      } catch {
        // A folder that fails half-way is listed as far as it was read.
      } finally {
        dir.closeSync();
      }
      return names.sort();
    },
  };
}
