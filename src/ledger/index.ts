// The ledger's public surface, for src/cli and tests.
export { checkedLedgerHome, ledgerHome, ledgerFile, lockFile } from "./home.ts";
export { openLedger, openLedgerForReading, openLedgerReadOnly, ledgerExists, type OpenOptions } from "./open.ts";
export type { RunLedger } from "./ledger.ts";
export { batchingSink, directSink, type EventSink, type SinkOptions } from "./sink.ts";
export { acquireRunLock, isRunLive, readHolder, runLockState, type LockHolder, type RunLock } from "./run-lock.ts";
export type { ResumeTicket } from "./resume-check.ts";
export { SCHEMA_VERSION } from "./migrations.ts";
export type * from "./types.ts";
export type { CancelRequest, DecisionAsk, DecisionRequest, Requester, RequestVia, RunRequest, RunRequests } from "./run-requests.ts";
export type { StoredEvent } from "./run-events.ts";
