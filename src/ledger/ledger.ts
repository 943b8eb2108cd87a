// The run ledger: one SQLite file (see open.ts), written through EventWriter,
// read by the queries of `vouch runs`, `vouch show` and resume. Every public
// method turns SQLite failures into a LedgerError naming the file.
import type { Database } from "bun:sqlite";
import { UsageError } from "../engine/errors.ts";
import type { VouchEvent } from "../engine/events.ts";
import { EventWriter } from "./event-writer.ts";
import { listRuns, type Liveness } from "./run-listing.ts";
import { acquireRunLock, isRunLive, type RunLock } from "./run-lock.ts";
import { claimRunId } from "./claim-run-id.ts";
import { eventsAfter, lastSeq, runEvents, type StoredEvent } from "./run-events.ts";
import { resolveRun } from "./resolve-run.ts";
import { checkResumable, type ResumeTicket } from "./resume-check.ts";
import { resumeFactsOf, runFactsOf, runSummary } from "./run-summary.ts";
import { runRequests, type RunRequests } from "./run-requests.ts";
import { batchingSink, type EventSink, type SinkOptions } from "./sink.ts";
import { guarded } from "./sqlite-errors.ts";
import { LedgerCorruptError } from "./integrity.ts";
import type { RunListing, RunSummary } from "./types.ts";
import { checkRuns, sittings, type SittingFilter, type Sittings } from "./evidence-reads.ts";
import type { CheckRunRow } from "../read/check-history.ts";

export interface RunLedger {
  /** The ledger folder (VOUCH_HOME or <cwd>/.vouch). */
  readonly home: string;
  /** <home>/ledger.sqlite */
  readonly file: string;
  /** Appends events verbatim, in one transaction (all or none). */
  write(events: readonly VouchEvent[]): void;
  /** engine → sink.append → commit (batched) → forward → consumers. */
  sink(forward: (event: VouchEvent) => void, options?: SinkOptions): EventSink;
  /** Newest first. */
  listRuns(): RunListing[];
  /** A full id, a unique prefix, or `last` → the run id; else UsageError (exit 2). */
  resolveRun(ref: string): string;
  /** Every event of the run, in seq order, validated against the event union. */
  runEvents(runId: string): VouchEvent[];
  lastSeq(runId: string): number | null;
  /** The run's events after seq `afterSeq` (at most `limit`), each with its stored text (ADR 0063). */
  eventsAfter(runId: string, afterSeq: number, limit: number): StoredEvent[];
  /** Everything `vouch show` prints; UsageError for an unknown run. */
  runSummary(runId: string): RunSummary;
  /** The run's facts (summary.run) without reading its nodes and branches. */
  runFacts(runId: string): RunSummary["run"];
  /** Refuses (ResumeRefusedError, exit 2) when another live process holds the run. */
  acquireRunLock(runId: string): RunLock;
  /** A new run: draws ids from makeId until one is unused, and returns its lock
   *  (the id is lock.runId). No two starts get the same id, however many at once. */
  claimNewRun(makeId: () => string): RunLock;
  isRunLive(runId: string): boolean;
  /** Resolves ref, takes the run's lock, and refuses (exit 2) a live run, a
   *  passed run, or a changed graph (unless force). The caller releases ticket.lock. */
  resumeCheck(ref: string, currentDigest: string, force: boolean, hasSubgraphs?: boolean): ResumeTicket;
  /** Judged attempts (attempt.judged), for the claims and retries tables (ADR 0068). */
  sittings(filter: SittingFilter): Sittings;
  /** Every outcome of each check (or of `name`) in its newest runs (ADR 0067). */
  checkRuns(name?: string, window?: number): CheckRunRow[];
  /** What other processes ask of a run: cancels, approvals' decisions (ADR 0062). */
  readonly requests: RunRequests;
  /** Close every sink first (sink.close() commits what is queued). */
  close(): void;
}

export class SqliteRunLedger implements RunLedger {
  private readonly writer: EventWriter;
  private readonly liveness: Liveness;
  /** Set once the file was found damaged: nothing is written to it after (ADR 0048). */
  private damaged: LedgerCorruptError | null = null;
  readonly requests: RunRequests;

  constructor(
    private readonly db: Database,
    readonly home: string,
    readonly file: string,
    now: () => number,
  ) {
    this.writer = guarded(file, "preparing the ledger", () => new EventWriter(db));
    this.liveness = { isLive: (id) => isRunLive(home, id), now };
    this.requests = runRequests(db, file);
  }

  write(events: readonly VouchEvent[]): void {
    if (this.damaged) throw this.damaged;
    this.guard("appending events", () => this.writer.write(events), events[0]?.run);
  }

  sink(forward: (event: VouchEvent) => void, options?: SinkOptions): EventSink {
    return batchingSink((events) => this.write(events), forward, options);
  }

  listRuns(): RunListing[] {
    return this.guard("listing runs", () => this.snapshot(() => listRuns(this.db, this.liveness)));
  }

  resolveRun(ref: string): string {
    return this.guard("finding the run", () => resolveRun(this.db, ref, this.file));
  }

  runEvents(runId: string): VouchEvent[] {
    return this.guard("reading the run's events", () => runEvents(this.db, runId, this.file));
  }

  eventsAfter(runId: string, afterSeq: number, limit: number): StoredEvent[] {
    return guarded(this.file, "reading the run's events", () => eventsAfter(this.db, runId, afterSeq, limit, this.file));
  }

  lastSeq(runId: string): number | null {
    return this.guard("reading the run's events", () => lastSeq(this.db, runId));
  }

  runSummary(runId: string): RunSummary {
    const summary = this.guard("reading the run", () => this.snapshot(() => runSummary(this.db, runId, this.liveness)));
    if (!summary) throw new UsageError(`no run ${runId} in ${this.file}`, "see the recorded runs with: vouch runs");
    return summary;
  }

  /** summary.run of runSummary, without reading the nodes and branches. */
  runFacts(runId: string): RunSummary["run"] {
    const facts = guarded(this.file, "reading the run", () => this.snapshot(() => runFactsOf(this.db, runId, this.liveness)));
    if (!facts) throw new UsageError(`no run ${runId} in ${this.file}`, "see the recorded runs with: vouch runs");
    return facts;
  }

  acquireRunLock(runId: string): RunLock {
    return acquireRunLock(this.home, runId);
  }

  claimNewRun(makeId: () => string): RunLock {
    if (this.damaged) throw this.damaged;
    return this.guard("choosing a run id", () => claimRunId(this.db, this.file, makeId, (id) => this.acquireRunLock(id)));
  }

  isRunLive(runId: string): boolean {
    return isRunLive(this.home, runId);
  }

  resumeCheck(ref: string, currentDigest: string, force: boolean, hasSubgraphs = false): ResumeTicket {
    const runId = this.resolveRun(ref);
    const lock = this.acquireRunLock(runId);
    try {
      // We hold the lock now, so no other process runs it: read it as not live.
      const notLive: Liveness = { ...this.liveness, isLive: () => false };
      const summary = this.guard("reading the run", () => resumeFactsOf(this.db, runId, notLive));
      if (!summary) throw new UsageError(`no run ${runId} in ${this.file}`);
      return checkResumable(summary, lock, currentDigest, force, hasSubgraphs);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  sittings(filter: SittingFilter): Sittings {
    return guarded(this.file, "reading the judged sittings", () => sittings(this.db, filter));
  }

  checkRuns(name?: string, window?: number): CheckRunRow[] {
    return guarded(this.file, "reading the checks' history", () => checkRuns(this.db, name, window));
  }

  close(): void {
    this.db.close();
  }

  /** guarded, remembering a damaged file so that no later call writes to it. */
  private guard<T>(doing: string, fn: () => T, runId?: string): T {
    try {
      return guarded(this.file, doing, fn, runId);
    } catch (e) {
      if (e instanceof LedgerCorruptError) this.damaged = e;
      throw e;
    }
  }

  /** One read transaction: every table read from the same WAL snapshot, so a
   *  run being written meanwhile never shows a node ahead of its run. */
  private snapshot<T>(read: () => T): T {
    return this.db.transaction(read)();
  }
}
