// The file operations under the handover store (handover-files.ts): a file is
// known by what it was when written, a changed one is noticed by a stat (its
// change time among the rest: no process can set that one back), a released
// one is rewritten in place only when it is still the very file written (never
// through a link or a FIFO a command put there), and contents are named by digest.
import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, openSync, rmdirSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** A handed-over file, as it was when written: a stat that differs means someone changed it.
 *  The change time (ctime) is the one a command cannot put back: a write, a chmod, a rename and
 *  utimensat itself all set it to the clock's now, so a same-size rewrite whose mtime was put
 *  back with `touch -r` (undetected by inode, size and mtime alone) is noticed. In nanoseconds:
 *  a float of milliseconds loses the digits two writes in the same tick differ by. */
export interface WrittenFile {
  path: string;
  identity: FileIdentity;
}

export interface FileIdentity {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

export function identityOf(s: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): FileIdentity {
  return { ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs };
}

/** The identity of the file at `path` now (after a rename, which sets its change time). */
export function identityAt(path: string): FileIdentity {
  return identityOf(statSync(path, { bigint: true }));
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already (a command removed it): nothing to free
  }
}

/** Removes a file the store wrote, and the input folder it leaves empty (vacate). */
export function removeFile(path: string, root: string | null): void {
  removeQuietly(path);
  vacate(path, root);
}

/** A run's inputs are a folder of their own in the store's folder `root`: a store that lives
 *  long (a worker's per run, ADR 0090; a local run's whole session) removes a folder whose last
 *  file left (`path`, removed or renamed away), or they would pile up empty. */
export function vacate(path: string, root: string | null): void {
  const parent = dirname(path);
  if (parent === root) return;
  try {
    rmdirSync(parent);
  } catch {
    // Not empty (another input of the run is still there) or gone: either is fine.
  }
}

/** Overwrites a released file with `text` if it is still the very file written and untouched
 *  since (its whole identity, change time included, read from the opened descriptor: no stat of
 *  the path before, ADR 0085; one link; never through a symbolic link a command put in its
 *  place: that would change a file elsewhere, nor a FIFO or device), read-only again after; its
 *  new identity, or null when it cannot be reused (then it is not written).
 *  Never truncated to zero first: ext4 flushes a file truncated to zero when it is closed. */
export function rewriteInPlace(old: WrittenFile, text: string): FileIdentity | null {
  const fds: number[] = [];
  /** @param whole the first descriptor: the file must be untouched (its whole identity); the
   *  second, after vouch's own fchmod moved its change time: the same inode */
  const open = (flags: number, whole: boolean) => {
    // O_NONBLOCK: a FIFO a command put there would make the open wait for a reader for ever
    // (vouch's one thread blocked, the run hung); it fails or opens at once, and is no file.
    const fd = openSync(old.path, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    fds.push(fd);
    const st = fstatSync(fd, { bigint: true });
    const same = whole ? sameIdentity(st, old.identity) : st.ino === old.identity.ino;
    return st.isFile() && same && st.nlink === 1n ? { fd, st } : null;
  };
  try {
    let w: ReturnType<typeof open>;
    try {
      w = open(constants.O_WRONLY, true);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EACCES") return null;
      // Not root: 0400 refuses the writer. Made writable through a descriptor, never the path.
      const r = open(constants.O_RDONLY, true);
      if (r === null) return null;
      fchmodSync(r.fd, 0o600);
      w = open(constants.O_WRONLY, false);
    }
    if (w === null) return null;
    const bytes = Buffer.from(text);
    let at = 0;
    while (at < bytes.length) at += writeSync(w.fd, bytes, at, bytes.length - at, at);
    if (w.st.size > BigInt(bytes.length)) ftruncateSync(w.fd, bytes.length);
    if ((w.st.mode & 0o777n) !== 0o400n) fchmodSync(w.fd, 0o400);
    return identityOf(fstatSync(w.fd, { bigint: true }));
  } catch {
    return null;
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

export function unchanged(s: WrittenFile): boolean {
  try {
    return sameIdentity(statSync(s.path, { bigint: true }), s.identity);
  } catch {
    return false;
  }
}

function sameIdentity(now: FileIdentity, was: FileIdentity): boolean {
  return now.ino === was.ino && now.size === was.size && now.mtimeNs === was.mtimeNs && now.ctimeNs === was.ctimeNs;
}

export function digest(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 32);
}

/** An input's file is named by its stem, unless the stem is longer than a file name may be
 *  (255 bytes on the usual file systems; a graph may name an input longer): then by its first
 *  characters (at most 128 bytes) and a digest of the whole, still one name per stem. */
export function inputFileName(stem: string): string {
  return Buffer.byteLength(stem) <= MAX_STEM_BYTES ? stem : `${Array.from(stem).slice(0, 32).join("")}-${digest(stem)}`;
}
const MAX_STEM_BYTES = 200;
