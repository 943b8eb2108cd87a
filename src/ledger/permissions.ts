// The ledger holds a run's inputs, outputs and model answers: its folder is
// private (0700) and its database files are 0600, whatever the umask. SQLite
// gives -wal and -shm the mode of the database file, so creating ledger.sqlite
// 0600 before SQLite opens it makes all three private (docs/ledger.md).
import { chmodSync, closeSync, existsSync, fchmodSync, lstatSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { LOCKS_DIR } from "./home.ts";

export const FOLDER_MODE = 0o700;
export const FILE_MODE = 0o600;
const STICKY = 0o1000;

/** Creates `dir` (and its parents) when missing; a folder it created is 0700 whatever the umask. */
export function createPrivateFolder(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: FOLDER_MODE });
  chmodSync(dir, FOLDER_MODE); // the umask may have taken bits the owner needs
}

/** Creates an empty `file` 0600 when missing (an empty file is an empty SQLite database). */
export function createPrivateFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, "wx", FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return; // another process was first
    throw e;
  }
  try {
    fchmodSync(fd, FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, "0");

/** Takes group and other permissions off one path, and nothing more: the
 *  owner's bits stay as they are (a ledger its owner made read-only stays so).
 *  "PATH 0755 → 0700" when it changed. A symbolic link is not followed: what it
 *  points at is not the ledger's to close (chmod would change the target). */
function tighten(path: string, isFolder: boolean): string | null {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  if (st.isSymbolicLink()) return null;
  // Another user's file or folder, or a shared folder (the sticky bit, as on /tmp), is not ours to close.
  if (st.uid !== process.getuid?.() || (isFolder && (st.mode & STICKY) !== 0)) return null;
  if ((st.mode & 0o077) === 0) return null;
  const next = st.mode & 0o7700 & ~STICKY;
  chmodSync(path, next);
  return `${path} ${octal(st.mode)} → ${octal(next)}`;
}

/** Creates the ledger folder (0700) and an empty ledger.sqlite (0600) when
 *  missing, before SQLite opens it, so a new ledger is private from the start. */
export function createPrivateLedger(home: string, file: string): void {
  createPrivateFolder(home);
  createPrivateFile(file);
}

/** Makes the ledger folder, locks/, ledger.sqlite and its -wal/-shm private;
 *  called once the file is known to be a vouch ledger (a file vouch refuses is
 *  left as it was). Returns what it tightened (an older vouch left them looser). */
export function tightenLedger(home: string, file: string): string[] {
  const changed = [
    tighten(home, true),
    tighten(join(home, LOCKS_DIR), true),
    ...[file, `${file}-wal`, `${file}-shm`].map((f) => tighten(f, false)),
  ];
  return changed.filter((c): c is string => c !== null);
}
