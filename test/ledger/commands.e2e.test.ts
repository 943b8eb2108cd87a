// `vouch runs` and `vouch show` through the real compiled binary (dist/vouch,
// built by `bun run build.ts`), against ledgers populated with events.
import { Database } from "bun:sqlite";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EventOf } from "../../src/engine/events.ts";
import { SCHEMA_VERSION, ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { fullRun, RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";
import { BINARY, ensureBinary } from "../graph/binary.ts";

let t: ReturnType<typeof tempHome>;

// Built when missing or older than src/ (a test must never judge a stale build).
const VOUCH = BINARY;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

async function vouch(args: string[], opts: { home?: string | null; cwd?: string } = {}) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: "UTC" };
  if (opts.home !== null) env.VOUCH_HOME = opts.home ?? t.home;
  const p = Bun.spawn([VOUCH, ...args], { env, cwd: opts.cwd ?? dirname(t.home), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

function populate(): RunScript {
  const ledger = openLedger({ home: t.home });
  const full = fullRun();
  ledger.write(full.events);
  const passed = new RunScript("r-passed-0002");
  passed.started({ graph: "other", graph_path: "graphs/other.yaml" });
  passed.runFinished("passed", { cost_usd: 1.5, wall_ms: 65_000 });
  ledger.write(passed.events);
  const crashed = new RunScript("r-crashed-0003");
  crashed.started();
  crashed.nodeStarted({ node: "build" }, "script");
  ledger.write(crashed.events);
  ledger.close();
  return full;
}

describe("vouch runs", () => {
  test("with no ledger yet: says so, exit 0, and creates nothing", async () => {
    const r = await vouch(["runs"]);
    expect(r).toEqual({ stdout: `no runs recorded in ${t.home}\n`, stderr: "", code: 0 });
    expect(existsSync(t.home)).toBe(false);
    expect((await vouch(["runs", "--json"])).stdout).toBe("[]\n");
  });

  test("the ledger defaults to ./.vouch in the working directory", async () => {
    populate();
    const r = await vouch(["runs"], { home: null, cwd: dirname(t.home) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("r-full-0001");
  });

  test("lists newest first: id, graph, status (abandoned derived), started, wall, cost", async () => {
    populate();
    const r = await vouch(["runs"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        // Times as every reader shows them (src/text/duration.ts): 2.6s, not 2s600ms.
        "RUN             GRAPH  STATUS     STARTED              WALL   COST",
        "r-crashed-0003  demo   abandoned  2026-11-29 22:00:00  100ms  $0",
        "r-passed-0002   other  passed     2026-11-29 22:00:00  1m5s   $1.50",
        "r-full-0001     demo   failed     2026-11-29 22:00:00  2.6s   $0.07 (+1 unknown)",
        "",
      ].join("\n"),
    );
  });

  test("--json gives the same facts as an array", async () => {
    populate();
    const runs = JSON.parse((await vouch(["runs", "--json"])).stdout) as Record<string, unknown>[];
    expect(runs.map((r) => [r.id, r.status, r.exit_code, r.cost_usd, r.wall_ms])).toEqual([
      ["r-crashed-0003", "abandoned", null, 0, 100],
      ["r-passed-0002", "passed", 0, 1.5, 65_000],
      ["r-full-0001", "failed", 1, 0.07, 2600],
    ]);
    expect(runs[0]).toMatchObject({
      graph: "demo",
      graph_path: "graphs/demo.yaml",
      started_at: "2026-11-29T22:00:00.100Z",
      live: false,
      sessions: 1,
    });
  });
});

describe("vouch show", () => {
  test("--json of a finished run holds every check's tail and every overrun the events carried", async () => {
    const full = populate();
    const r = await vouch(["show", "r-full", "--json"]);
    expect(r.code).toBe(0);
    const shown = JSON.parse(r.stdout);
    const nodes = [...shown.nodes, ...shown.branches.flatMap((b: { nodes: unknown[] }) => b.nodes)];
    const checks = nodes.flatMap((n) => n.attempts.flatMap((a: { checks: unknown[] }) => a.checks));
    const overruns = [...shown.overruns, ...nodes.flatMap((n) => n.attempts.flatMap((a: { overruns: unknown[] }) => a.overruns))];
    const strip = ({ v: _v, type: _t, run: _r, ...rest }: Record<string, unknown>) => rest;
    const byseq = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;
    expect(checks.sort(byseq)).toEqual(
      full.events.filter((e) => e.type === "check.finished").map((e) => strip(e as EventOf<"check.finished">)),
    );
    expect(overruns.sort(byseq)).toEqual(
      full.events.filter((e) => e.type === "cap.overrun").map((e) => strip(e as EventOf<"cap.overrun">)),
    );
    expect(shown.run).toMatchObject({ id: "r-full-0001", status: "failed", exit_code: 1 });
    expect(shown.pass_env).toEqual(["ANTHROPIC_API_KEY", "GH_TOKEN"]);
  });

  test("text: header, the node table with branches indented, failed checks with tails, overruns, env names", async () => {
    populate();
    const r = await vouch(["show", "r-full-0001"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "run      r-full-0001",
        "graph    demo (graphs/demo.yaml)",
        "status   failed, exit 1",
        "started  2026-11-29 22:00:00",
        "wall     2.6s",
        "cost     $0.07 (+1 unknown)",
        "nodes    2 passed, 1 failed, 0 error, 1 skipped, 0 cancelled",
        "env      ANTHROPIC_API_KEY, GH_TOKEN (--pass-env: names passed to child processes; values are never recorded)",
        "",
        "NODE        STATUS                  STOP      COST   TURNS  WALL  DETAIL",
        "build       passed (verified)       -         -      -      1s    after 2 attempts",
        "review      passed (self-reported)  complete  $0.05  5      1s",
        "each        failed                  -         -      -      1s    map_failed: 1 of 2 branches failed",
        "  #0 F-0    passed                                                verdict: CONFIRMED",
        "    verify  passed (verified)       complete  $0.01  2      1s",
        "  #1 F-1    failed                                                verdict: REFUTED",
        "    verify  failed                  complete  $0.01  2      1s    check_failed: check grep-cited failed",
        "done        not started             -         -      -      -",
        "",
        "Failed checks",
        "  build attempt 1: check tests failed (exit 1, expected exit_zero, 1.2s): exit 1",
        "    stdout:",
        "      | FAIL tests: expected 2, got 3",
        "      |   at test.ts:10",
        "    stderr:",
        "      | error: tests failed",
        "  each[1].verify attempt 1: check grep-cited failed (exit 1, expected exit_zero, 1.2s): exit 1",
        "    stdout:",
        "      | no match for foo()",
        "    stderr:",
        "      | error: grep-cited failed",
        "",
        "Cap overruns",
        "  review attempt 1: turns limit 4, actual 5",
        "  run: budget_usd limit $0.05, actual $0.07",
        "",
        "Retries by cause (what they cost, how many ended verified)",
        "CAUSE         RETRIES  VERIFIED  COST  TURNS",
        "check_failed  1        1 (100%)  $0    0",
        "",
      ].join("\n"),
    );
  });

  test("`last` is the newest run; an abandoned run's unfinished node says so", async () => {
    populate();
    const r = await vouch(["show", "last"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^run {6}r-crashed-0003\n/);
    expect(r.stdout).toContain("status   abandoned\n");
    expect(r.stdout).toMatch(/\nbuild +unfinished +-/);
  });

  test("unknown, ambiguous and missing RUN: exit 2 with one clear message, no stack", async () => {
    populate();
    const unknown = await vouch(["show", "zzz"]);
    expect(unknown).toEqual({
      stdout: "",
      stderr: `vouch: no run matches "zzz" in ${ledgerFile(t.home)}\nhint: see the recorded runs with: vouch runs\n`,
      code: 2,
    });
    const ambiguous = await vouch(["show", "r-"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toBe(
      'vouch: run prefix "r-" is ambiguous: it matches 3 runs: r-crashed-0003, r-passed-0002, r-full-0001\nhint: give more characters of the run id\n',
    );
    const missing = await vouch(["show"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^vouch: show needs a RUN/);
  });

  test("with no ledger at all: exit 2 naming the folder", async () => {
    const r = await vouch(["show", "last"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no runs are recorded in ${t.home}`);
  });
});

describe("a ledger vouch cannot read, through the binary", () => {
  test("garbage: exit 3, one message naming the file, no stack trace", async () => {
    mkdirSync(t.home, { recursive: true });
    writeFileSync(ledgerFile(t.home), "garbage ".repeat(1000));
    for (const args of [["runs"], ["show", "last"]]) {
      const r = await vouch(args);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(new RegExp(`^vouch: ${ledgerFile(t.home).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not a vouch ledger`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });

  test("a newer schema: exit 3 naming both versions", async () => {
    openLedger({ home: t.home }).close();
    const db = new Database(ledgerFile(t.home));
    db.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", [String(SCHEMA_VERSION + 1)]);
    db.close();
    const r = await vouch(["runs"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`has ledger schema version ${SCHEMA_VERSION + 1}, newer than this vouch reads (version ${SCHEMA_VERSION})`);
  });
});

describe("text from outside reaches the terminal without escape sequences", () => {
  // A check's output is written by whatever the project runs (tests a model may
  // have edited): `vouch show` must not replay its escape codes (clear screen,
  // window title, colours) to the person's terminal, as the plain lines and the
  // live UI do not. --json keeps the bytes (JSON escapes them).
  test("vouch show and vouch runs print no ESC or other control character from the events", async () => {
    const hostile = "\u001b]0;PWNED\u0007\u001b[31mred\u001b[0m\u001b[2J boom\r\n\u009b2J";
    const s = new RunScript("r-esc-0001");
    s.started({ graph: `demo\u001b[2J`, nodes: [{ id: "build", kind: "script", needs: [] }] });
    s.nodeStarted({ node: "build" }, "script");
    s.check({ node: "build" }, "tests", false, { stdout_tail: `${hostile}\n`, stderr_tail: `${hostile}\n`, reason: `exit 1 ${hostile}` });
    s.finished({ node: "build" }, "failed", { cause: "check_failed", error: `1 of 1 check failed ${hostile}`, stop_reason: null });
    s.runFinished("failed");
    const ledger = openLedger({ home: t.home });
    ledger.write(s.events);
    ledger.close();
    for (const args of [["show", "r-esc-0001"], ["runs"]]) {
      const r = await vouch(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(args[0] === "show" ? "boom" : "r-esc-0001");
      expect(r.stdout, args.join(" ")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    const json = await vouch(["show", "r-esc-0001", "--json"]);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain("\\u001b]0;PWNED");
  });
});
