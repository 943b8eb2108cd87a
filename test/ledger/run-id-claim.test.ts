// Run ids are unique by construction, not by luck (issue 12 item 8): the
// ledger skips an id that is recorded or whose lock another start holds.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { LedgerError } from "../../src/engine/errors.ts";
import { acquireRunLock, openLedger, type RunLedger } from "../../src/ledger/index.ts";
import { CLAIM_ATTEMPTS } from "../../src/ledger/claim-run-id.ts";
import { newRunId } from "../../src/cli/run-id.ts";
import { RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
let ledger: RunLedger;
beforeEach(() => {
  t = tempHome();
  ledger = openLedger({ home: t.home });
});
afterEach(() => {
  ledger.close();
  t.cleanup();
});

/** An id source that repeats the given ids, then counts up. */
function draws(...ids: string[]): () => string {
  let n = 0;
  return () => ids[n++] ?? `fresh-${n}`;
}

describe("claiming a new run id", () => {
  test("an id already recorded in the ledger is drawn again", () => {
    const s = new RunScript("r-taken");
    s.started();
    s.runFinished("passed");
    ledger.write(s.events);
    const lock = ledger.claimNewRun(draws("r-taken", "r-taken", "r-free"));
    expect(lock.runId).toBe("r-free");
    lock.release();
  });

  test("an id whose lock another start holds (not yet recorded) is drawn again", () => {
    const other = acquireRunLock(t.home, "r-starting");
    const lock = ledger.claimNewRun(draws("r-starting", "r-next"));
    expect(lock.runId).toBe("r-next");
    lock.release();
    other.release();
  });

  test("the claimed id is held: a second claim of the same id moves on", () => {
    const first = ledger.claimNewRun(draws("r-same"));
    const second = ledger.claimNewRun(draws("r-same", "r-other"));
    expect([first.runId, second.runId]).toEqual(["r-same", "r-other"]);
    first.release();
    second.release();
  });

  test("a source that only repeats a used id ends in a LedgerError (exit 3), never a duplicate", () => {
    const s = new RunScript("r-stuck");
    s.started();
    ledger.write(s.events);
    let err: unknown;
    try {
      ledger.claimNewRun(() => "r-stuck");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LedgerError);
    expect((err as Error).message).toContain(`after ${CLAIM_ATTEMPTS} tries`);
  });

  test("ids keep the sortable date-time prefix and carry 6 random hex digits", () => {
    const id = newRunId(new Date("2026-11-29T22:15:03Z"));
    expect(id).toMatch(/^20261129-221503-[0-9a-f]{6}$/);
    const many = new Set(Array.from({ length: 2000 }, () => newRunId(new Date("2026-11-29T22:15:03Z"))));
    // 2,000 draws in one second: 4 hex digits clash here almost always (p ≈ 0.95); 6 rarely.
    expect(many.size).toBeGreaterThan(1990);
  });
});
