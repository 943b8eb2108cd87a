// Every SQLite failure reaches the user as one LedgerError naming the ledger
// file and saying what to do: never a stack trace (docs/architecture.md §8, ADR 0008).
import { LedgerError, VouchError } from "../engine/errors.ts";
import { corruptLedger, isCorruption } from "./integrity.ts";

const MOVE_AWAY = "move the file away (vouch starts a new ledger) or set VOUCH_HOME to another folder";

/** A LedgerError for SQLite and file-system failures; anything else (a bug) is returned as is.
 *  @param runId the run whose events were being written: a lock that outlasted the wait stopped it, and resume continues it */
export function ledgerErrorFrom(e: unknown, file: string, doing: string, runId?: string): unknown {
  if (e instanceof VouchError) return e;
  const code = (e as { code?: string })?.code ?? "";
  const message = (e as Error)?.message ?? String(e);
  if (code === "SQLITE_NOTADB")
    return new LedgerError(`${file} is not a vouch ledger: it is not a SQLite database (a foreign or corrupt file)`, MOVE_AWAY);
  if (isCorruption(e)) return corruptLedger(file, `${message}, while ${doing}`);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return new LedgerError(
      `${file} stayed locked by another process while ${doing}`,
      runId === undefined
        ? "another vouch is writing to this ledger; try again in a moment"
        : `another vouch is writing to this ledger; when it is done, vouch resume ${runId} continues this run`,
    );
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_PERM"))
    return new LedgerError(
      `cannot write ${file} while ${doing}: ${message}`,
      "check the folder's permissions, or set VOUCH_HOME to a writable folder",
    );
  if (code.startsWith("SQLITE_FULL"))
    return new LedgerError(`the disk holding ${file} is full while ${doing}`, "free some space and resume the run");
  if (code.startsWith("SQLITE_IOERR")) return new LedgerError(`input/output error on ${file} while ${doing}: ${message}`);
  if (code.startsWith("SQLITE_")) return new LedgerError(`ledger ${file}: ${message} (${code}) while ${doing}`);
  const errno = (e as NodeJS.ErrnoException)?.code;
  if (errno)
    return new LedgerError(
      `cannot use ${file} while ${doing}: ${message}`,
      "check the folder's permissions, or set VOUCH_HOME to another folder",
    );
  return e;
}

/** Runs fn, turning SQLite and file-system errors into LedgerError. */
export function guarded<T>(file: string, doing: string, fn: () => T, runId?: string): T {
  try {
    return fn();
  } catch (e) {
    throw ledgerErrorFrom(e, file, doing, runId);
  }
}
