// The ledger side of `vouch resume`: refusals (exit 2) for a live run, a
// changed graph without --force, a run that passed; the ticket otherwise.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "vitest";
import { join } from "node:path";
import { ResumeRefusedError, UsageError } from "../../src/engine/errors.ts";
import { ledgerFile, type RunLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";
import { eachFreshLedger, type TempHome } from "./temp-home.ts";

let t: TempHome;
let ledger: RunLedger;
eachFreshLedger((home, opened) => ((t = home), (ledger = opened)));

function crashed(id = "r-crashed-01"): RunScript {
  const s = new RunScript(id);
  s.started({ pass_env: ["GH_TOKEN"], inputs: { findings: "F1" } });
  s.nodeStarted({ node: "build" }, "script");
  s.finished({ node: "build" }, "passed");
  s.nodeStarted({ node: "review" }, "agent");
  ledger.write(s.events);
  return s;
}

function refusal(fn: () => unknown): ResumeRefusedError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ResumeRefusedError);
    expect((e as ResumeRefusedError).exitCode).toBe(2);
    return e as ResumeRefusedError;
  }
  throw new Error("expected a refusal");
}

describe("resumeCheck", () => {
  // Issue 29 (ADR 0082): resume reads the run back once, as its events. Its check read the
  // whole summary `vouch show` builds (every node row and branch) besides: with node_results and
  // branches made unreadable the check must still answer, and the summary must not (so this
  // test fails on a check that reads them; it did before the change). An interrupted run: a
  // session that never finished has its cost summed from its node rows (run-listing.ts).
  test("reads the run's facts only: neither node_results nor branches", () => {
    const s = new RunScript("r-crashed-01");
    s.started({ pass_env: ["GH_TOKEN"], inputs: { findings: "F1" } });
    s.nodeStarted({ node: "build" }, "script");
    s.finished({ node: "build" }, "passed");
    s.runFinished("interrupted");
    ledger.write(s.events);
    const db = new Database(ledgerFile(t.home));
    for (const table of ["node_results", "branches"]) {
      db.run(`ALTER TABLE ${table} RENAME TO ${table}_kept`);
      db.run(`CREATE VIEW ${table} AS SELECT vouch_table_not_to_read() AS x`);
    }
    db.close();
    const ticket = ledger.resumeCheck("r-crashed", "sha256:aaaa", false);
    expect(ticket).toMatchObject({ runId: "r-crashed-01", passEnv: ["GH_TOKEN"], inputs: { findings: "F1" } });
    ticket.lock.release();
    expect(() => ledger.runSummary("r-crashed-01")).toThrow(/vouch_table_not_to_read/);
  });

  test("an abandoned run gives a ticket holding the run's lock and what the resume needs", () => {
    const s = crashed();
    const ticket = ledger.resumeCheck("r-crashed", "sha256:aaaa", false);
    expect(ticket).toMatchObject({
      runId: "r-crashed-01",
      graph: "demo",
      graphPath: "graphs/demo.yaml",
      recordedDigest: "sha256:aaaa",
      status: "abandoned",
      inputs: { findings: "F1" },
      passEnv: ["GH_TOKEN"],
      lastSeq: s.seq - 1,
      pausedApprovals: [],
      digestChanged: false,
    });
    expect(ledger.isRunLive("r-crashed-01")).toBe(true);
    expect(() => ledger.acquireRunLock("r-crashed-01")).toThrow(ResumeRefusedError);
    ticket.lock.release();
    expect(ledger.isRunLive("r-crashed-01")).toBe(false);
  });

  test("a changed graph is refused naming the file and both digests, and the lock is let go", () => {
    crashed();
    const e = refusal(() => ledger.resumeCheck("r-crashed-01", "sha256:cccc", false));
    expect(e.message).toBe(
      "the graph file graphs/demo.yaml changed since run r-crashed-01 started (digest sha256:aaaa then, sha256:cccc now)",
    );
    expect(e.hint).toMatch(/--force/);
    expect(ledger.isRunLive("r-crashed-01")).toBe(false);
  });

  test("--force lets a changed graph through, and says so", () => {
    crashed();
    const ticket = ledger.resumeCheck("r-crashed-01", "sha256:cccc", true);
    expect(ticket.digestChanged).toBe(true);
    ticket.lock.release();
  });

  test("a run that passed has nothing to resume", () => {
    const s = new RunScript("r-passed");
    s.started();
    s.runFinished("passed");
    ledger.write(s.events);
    expect(refusal(() => ledger.resumeCheck("r-passed", "sha256:aaaa", true)).message).toBe(
      "run r-passed passed: there is nothing to resume",
    );
    expect(ledger.isRunLive("r-passed")).toBe(false);
  });

  test("a paused run lists the approvals waiting", () => {
    const s = new RunScript("r-paused");
    s.started();
    s.ev("run.paused", { approvals: [{ node: "ship", prompt: "deploy?" }] });
    s.runFinished("paused");
    ledger.write(s.events);
    const ticket = ledger.resumeCheck("last", "sha256:aaaa", false);
    expect(ticket).toMatchObject({ status: "paused", pausedApprovals: [{ node: "ship", prompt: "deploy?" }] });
    ticket.lock.release();
  });

  test("a run held by a live process (a real child) is refused as live", async () => {
    const child = Bun.spawn([process.execPath, join(import.meta.dirname, "lock-holder.ts"), t.home, "r-live-2"], { stdout: "pipe" });
    try {
      const reader = child.stdout.getReader();
      let text = "";
      while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
      const e = refusal(() => ledger.resumeCheck("r-live-2", "sha256:aaaa", true));
      expect(e.message).toContain(`run r-live-2 is live: vouch process ${child.pid}`);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
    const ticket = ledger.resumeCheck("r-live-2", "sha256:aaaa", false);
    expect(ticket.status).toBe("abandoned");
    ticket.lock.release();
  });

  test("an unknown run is a usage error (exit 2)", () => {
    expect(() => ledger.resumeCheck("nope", "x", false)).toThrow(UsageError);
  });
});
