// Evidence with a memory in the ledger (schema 4, ADR 0067 and 0068): a version 3 ledger
// keeps its checks' outcomes; attempt.judged and check.finished are projected in the same
// transaction; a branch a second worker ran again counts once; resumed sessions add up.
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { NODE_STATUSES } from "../../src/engine/events.ts";
import { claimTable } from "../../src/read/claims.ts";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ledgerFile, openLedger, SCHEMA_VERSION } from "../../src/ledger/index.ts";
import { MIGRATIONS, migrate } from "../../src/ledger/migrations.ts";
import { RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

const check = (name: string, o: Record<string, unknown>) =>
  JSON.stringify({
    v: 1,
    run: "r1",
    t: "2026-11-29T10:00:00.000Z",
    seq: 4,
    type: "check.finished",
    node: "a",
    attempt: 1,
    name,
    expect: "exit_zero",
    signal: null,
    timed_out: false,
    duration_ms: 1,
    stdout_tail: "",
    stderr_tail: "",
    truncated: false,
    exit: 0,
    passed: true,
    ...o,
  });

describe("version 3 → 4", () => {
  test("every check of node_results becomes an outcome (could not run told apart as vouch did), with no digest or tree", () => {
    mkdirSync(dirname(ledgerFile(t.home)), { recursive: true });
    const raw = new Database(ledgerFile(t.home), { create: true });
    migrate(raw, MIGRATIONS.slice(0, 3));
    const checks = [
      check("ok", {}),
      check("red", { passed: false, exit: 1, reason: "exit 1" }),
      check("gone", { passed: false, exit: null, reason: "the check could not run: spawn ENOENT" }),
      check("shell", { passed: false, exit: 127, reason: "exit 127" }),
      check("slow", { passed: false, exit: 127, timed_out: true, reason: "timed out" }),
      check("marked", { passed: false, exit: null, signal: "SIGKILL", could_not_run: true }),
    ];
    raw.run(
      "INSERT INTO node_results (run_id, session, node, map, branch_index, round, attempt, status, checks, first_seq) VALUES ('r1', 1, 'a', '', -1, 2, 1, 'failed', ?, 3)",
      [`[${checks.join(",")}]`],
    );
    raw.run(
      "INSERT INTO node_results (run_id, session, node, map, branch_index, attempt, status, first_seq) VALUES ('r1', 1, 'b', 'm', 0, 1, 'passed', 9)",
    );
    raw.close();
    openLedger({ home: t.home }).close();
    const db = new Database(ledgerFile(t.home), { readonly: true });
    expect(db.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    expect(SCHEMA_VERSION).toBe(7);
    expect(
      db.query("SELECT name, round, outcome, runs, failures, command_digest, tree_id, t, first_seq FROM check_runs ORDER BY name").all(),
    ).toEqual([
      {
        name: "gone",
        round: 2,
        outcome: "could_not_run",
        runs: 1,
        failures: 1,
        command_digest: null,
        tree_id: null,
        t: "2026-11-29T10:00:00.000Z",
        first_seq: 4,
      },
      {
        name: "marked",
        round: 2,
        outcome: "could_not_run",
        runs: 1,
        failures: 1,
        command_digest: null,
        tree_id: null,
        t: "2026-11-29T10:00:00.000Z",
        first_seq: 4,
      },
      {
        name: "ok",
        round: 2,
        outcome: "passed",
        runs: 1,
        failures: 0,
        command_digest: null,
        tree_id: null,
        t: "2026-11-29T10:00:00.000Z",
        first_seq: 4,
      },
      {
        name: "red",
        round: 2,
        outcome: "failed",
        runs: 1,
        failures: 1,
        command_digest: null,
        tree_id: null,
        t: "2026-11-29T10:00:00.000Z",
        first_seq: 4,
      },
      {
        name: "shell",
        round: 2,
        outcome: "could_not_run",
        runs: 1,
        failures: 1,
        command_digest: null,
        tree_id: null,
        t: "2026-11-29T10:00:00.000Z",
        first_seq: 4,
      },
      {
        name: "slow",
        round: 2,
        outcome: "failed",
        runs: 1,
        failures: 1,
        command_digest: null,
        tree_id: null,
        t: "2026-11-29T10:00:00.000Z",
        first_seq: 4,
      },
    ]);
    expect(db.query("SELECT count(*) AS n FROM sittings").get()).toEqual({ n: 0 });
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();
  });
});

/** A run whose map branch 0 ran on a worker that was cut off, then on another. */
function fleetRun(run: string, session: "first" | "resumed" = "first"): RunScript {
  const s = new RunScript(run, session === "first" ? 0 : 100);
  s.started({ resumed: session === "resumed" });
  const branch = { map: "each", index: 0 };
  for (const attempt of [1, 2]) {
    const remote = { worker: `w${attempt}`, job: `${run}.each.0.1`, attempt, seq: 0 };
    s.nodeStarted({ node: "verify", branch }, "agent");
    s.check({ node: "verify", branch }, "cites", attempt === 2, {
      command_digest: "sha256:cc",
      tree_id: "T1",
      remote: { ...remote, seq: 1 },
    });
    s.judged({ node: "verify", branch }, "agent", 1, {
      status: attempt === 2 ? "passed" : "failed",
      qualifier: attempt === 2 ? "verified" : null,
      cause: attempt === 2 ? null : "check_failed",
      claim: "VERIFIED",
      cost_usd: 0.25,
      turns: 3,
      remote: { ...remote, seq: 2 },
    });
  }
  s.finished({ node: "verify", branch }, "passed", { qualifier: "verified" });
  s.runFinished("passed");
  return s;
}

describe("the projections", () => {
  test("a branch a second worker ran again counts once: its last outcome and sitting", () => {
    const ledger = openLedger({ home: t.home });
    ledger.write(fleetRun("r1").events);
    expect(ledger.checkRuns()).toEqual([
      { name: "cites", command_digest: "sha256:cc", tree_id: "T1", outcome: "passed", run_id: "r1", t: expect.any(String) },
    ]);
    const s = ledger.sittings({});
    expect(s.runs).toBe(1);
    expect(s.rows).toEqual([
      {
        kind: "agent",
        group: "",
        claim: "VERIFIED",
        status: "passed",
        qualifier: "verified",
        cause: null,
        retry_of: null,
        cost_usd: 0.25,
        turns: 3,
      },
    ]);
    ledger.close();
  });

  test("a witness's run on the base is not the check's outcome: a vacuous check leaves no pass in its history", () => {
    const s = new RunScript("r2", 0);
    s.started({});
    s.nodeStarted({ node: "fix" }, "agent");
    // Passed on the base (tree: base): the check is vacuous, the node fails, no run on the result follows.
    s.check({ node: "fix" }, "tests", true, { command_digest: "sha256:tt", tree: "base" });
    s.finished({ node: "fix" }, "failed", {});
    s.runFinished("failed");
    const ledger = openLedger({ home: t.home });
    ledger.write(s.events);
    expect(ledger.checkRuns()).toEqual([]);
    ledger.close();
  });

  test("a resumed session's sittings and checks are its own: the history holds both sessions", () => {
    const ledger = openLedger({ home: t.home });
    ledger.write(fleetRun("r1").events);
    ledger.write(fleetRun("r1", "resumed").events);
    expect(ledger.checkRuns()).toHaveLength(2);
    expect(ledger.sittings({}).rows).toHaveLength(2);
    expect(ledger.sittings({ by: "node" }).rows.map((r) => r.group)).toEqual(["demo: each[].verify", "demo: each[].verify"]);
    ledger.close();
  });

  test("--since and a run's own: filters by when the sitting was judged", () => {
    const ledger = openLedger({ home: t.home });
    ledger.write(fleetRun("r1").events);
    ledger.write(fleetRun("r2").events);
    expect(ledger.sittings({ runId: "r2" }).rows).toHaveLength(1);
    expect(ledger.sittings({ since: "2099-01-01T00:00:00.000Z" }).rows).toHaveLength(0);
    expect(ledger.sittings({ by: "harness" }).rows.map((r) => r.group)).toEqual(["claude", "claude"]);
    expect(ledger.sittings({ by: "model" }).rows.map((r) => r.group)).toEqual(["(default)", "(default)"]);
    ledger.close();
  });
});

describe("property: through the ledger, the claims table's cells add up to the judged agent sittings", () => {
  test("random attempts of random nodes, branches and rounds, some reported twice (a worker's attempt run again)", () => {
    const attemptArb = fc.record({
      node: fc.constantFrom("a", "b", "__proto__"),
      branch: fc.option(fc.nat(3), { nil: undefined }),
      attempt: fc.integer({ min: 1, max: 3 }),
      kind: fc.constantFrom("agent" as const, "script" as const),
      claim: fc.option(fc.constantFrom("done", "not done", "VERIFIED", "\u001b[2J"), { nil: null }),
      status: fc.constantFrom(...NODE_STATUSES),
      twice: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(attemptArb, { maxLength: 25 }), (attempts) => {
        const h = tempHome();
        const ledger = openLedger({ home: h.home });
        try {
          const s = new RunScript("r-prop");
          s.started();
          const distinct = new Map<string, string>();
          for (const a of attempts) {
            const ref = { node: a.node, ...(a.branch !== undefined ? { branch: { map: "each", index: a.branch } } : {}) };
            for (let i = 0; i < (a.twice ? 2 : 1); i++)
              s.judged(ref, a.kind, a.attempt, { status: a.status, ...(a.kind === "agent" ? { claim: a.claim } : {}) });
            distinct.set(JSON.stringify([a.node, a.branch ?? -1, a.attempt]), a.kind);
          }
          ledger.write(s.events);
          const cells = claimTable(ledger.sittings({}).rows);
          const agents = [...distinct.values()].filter((k) => k === "agent").length;
          expect(cells.reduce((n, c) => n + c.sittings, 0)).toBe(agents);
        } finally {
          ledger.close();
          h.cleanup();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("reruns in check_runs (ADR 0066)", () => {
  test("a pass on a rerun after a failure is one flaky outcome; failing every rerun is one failed outcome of 3 runs", () => {
    const ledger = openLedger({ home: t.home });
    const s = new RunScript("r-rerun");
    s.started();
    s.nodeStarted({ node: "a" }, "agent");
    s.check({ node: "a" }, "flaky", false, { command_digest: "sha256:f" });
    s.check({ node: "a" }, "flaky", true, { command_digest: "sha256:f", rerun: 1, flaky: true });
    for (const rerun of [undefined, 1, 2])
      s.check({ node: "a" }, "red", false, { command_digest: "sha256:r", ...(rerun ? { rerun } : {}) });
    ledger.write(s.events);
    const db = new Database(ledgerFile(t.home), { readonly: true });
    expect(db.query("SELECT name, outcome, runs, failures FROM check_runs ORDER BY name").all()).toEqual([
      { name: "flaky", outcome: "flaky", runs: 2, failures: 1 },
      { name: "red", outcome: "failed", runs: 3, failures: 3 },
    ]);
    db.close();
    ledger.close();
  });
});
