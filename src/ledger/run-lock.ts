// The lock a running vouch holds on its run (ADR 0008).
//
// Bun has no flock(), but SQLite takes POSIX advisory locks (fcntl) on its
// files, and the kernel drops them when the process dies — also on kill -9.
// So each run has a tiny lock file, <home>/locks/<run>.lock, in which the
// holder keeps an EXCLUSIVE transaction open (rollback-journal mode: that is
// a real exclusive lock on the file). No pid is trusted for liveness, so a
// recycled pid can never make a dead run look live.
//
// Never open the .lock file with anything but SQLite in this process: closing
// any other descriptor on it would drop the process's fcntl locks. Who holds
// the lock is written to a separate <run>.holder file, for messages only.
// Lock files are left in place after release: deleting one while another
// process is opening it would let two processes lock different files.
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { hostname } from "node:os";
import { ResumeRefusedError } from "../engine/errors.ts";
import { lockFile } from "./home.ts";
import { createPrivateFolder, FILE_MODE } from "./permissions.ts";
import { ledgerErrorFrom } from "./sqlite-errors.ts";

export interface LockHolder {
  pid: number;
  since: string;
  /** The holder's host name (holders written before it was recorded lack it). */
  host?: string;
}

export interface RunLock {
  readonly runId: string;
  readonly file: string;
  /** Idempotent. The process's exit releases the lock as well. */
  release(): void;
}

/** Held locks' connections. Bun closes a Database that is garbage-collected,
 *  which would drop the lock of a caller that kept no reference to it: this
 *  set keeps every held lock alive until release() (test/ledger/lock.test.ts). */
const held = new Set<Database>();

/** How long to retry a busy lock: long enough to outlast a liveness probe's
 *  brief hold, short enough that refusing a live run feels immediate. */
const ACQUIRE_WAIT_MS = 300;
const PROBE_WAIT_MS = 60;

function isBusy(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

function holderFile(file: string): string {
  return file.replace(/\.lock$/, ".holder");
}

export function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(readFileSync(holderFile(file), "utf8")) as LockHolder;
    return typeof h.pid === "number" && typeof h.since === "string" ? h : null;
  } catch {
    return null;
  }
}

/** "process 1234 (since ...)" or "another process" when the holder did not say. */
export function describeHolder(holder: LockHolder | null): string {
  return holder ? `vouch process ${holder.pid} (holding it since ${holder.since})` : "another vouch process";
}

/** Takes the run's lock, or refuses (ResumeRefusedError, exit 2) when a live process holds it. */
export function acquireRunLock(home: string, runId: string): RunLock {
  const file = lockFile(home, runId);
  let db: Database;
  try {
    createPrivateFolder(dirname(file));
    db = new Database(file, { create: true, readwrite: true });
    db.run(`PRAGMA busy_timeout = ${ACQUIRE_WAIT_MS}`);
  } catch (e) {
    throw ledgerErrorFrom(e, file, "taking the run's lock");
  }
  try {
    db.run("BEGIN EXCLUSIVE");
  } catch (e) {
    db.close();
    if (!isBusy(e)) throw ledgerErrorFrom(e, file, "taking the run's lock");
    throw new ResumeRefusedError(
      `run ${runId} is live: ${describeHolder(readHolder(file))} holds its lock (${file})`,
      "wait for that run to finish, or stop it (Ctrl-C in its terminal) and resume it then",
    );
  }
  held.add(db);
  const holder: LockHolder = { pid: process.pid, since: new Date().toISOString(), host: hostname() };
  const hf = holderFile(file);
  try {
    writeFileSync(`${hf}.${process.pid}`, JSON.stringify(holder), { mode: FILE_MODE });
    renameSync(`${hf}.${process.pid}`, hf);
  } catch {
    // The holder file only improves messages; the lock itself is held.
  }
  let released = false;
  return {
    runId,
    file,
    release() {
      if (released) return;
      released = true;
      if (readHolder(file)?.pid === process.pid) rmSync(hf, { force: true });
      try {
        db.run("ROLLBACK");
      } finally {
        db.close();
        held.delete(db);
      }
    },
  };
}

/** Whether a live process holds the run's lock. Probes by trying to take it
 *  (and letting go at once); a run never locked has no lock file: not live. */
export function isRunLive(home: string, runId: string): boolean {
  return runLockState(home, runId) === "held";
}

/** held: a live process holds the run's lock; free: none does; unknown: the lock file
 *  cannot be opened for the probe (a folder this user may not write), so nobody can tell. */
export function runLockState(home: string, runId: string): "held" | "free" | "unknown" {
  const file = lockFile(home, runId);
  if (!existsSync(file)) return "free";
  let db: Database | undefined;
  try {
    db = new Database(file, { readwrite: true, create: false });
    db.run(`PRAGMA busy_timeout = ${PROBE_WAIT_MS}`);
    db.run("BEGIN EXCLUSIVE");
    db.run("ROLLBACK");
    return "free";
  } catch (e) {
    if (isBusy(e)) return "held";
    // Unreadable lock file (permissions): nobody can be shown to hold it.
    return "unknown";
  } finally {
    db?.close();
  }
}
