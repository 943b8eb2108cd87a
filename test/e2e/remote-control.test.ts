// Operating a run from another process (issue 31), through the real binary: one
// dist/vouch records a run, others cancel it, decide its approval and follow it.
// Every wait is on an event the run's own NDJSON (or the ledger) shows.
import { describe, expect, test } from "vitest";
import { eventSchema, type VouchEvent } from "../../src/engine/events.ts";
import { BINARY, cleanEnv, parseNdjson, STACK_LINE, vouch } from "./helpers.ts";
import { eventually, processesWith } from "../spawn/helpers.ts";
import { remoteWorld, type Coordinator, finishedBranches, gatedMapGraph, of, release, writeGraph } from "./remote-helpers.ts";

const w = remoteWorld("remote");
const start = (args: string[]) => w.start(args);
const runIdOf = (c: Coordinator) => c.events()[0]!.run;
const v = (args: string[]) => vouch(args, { home: w.home, cwd: w.dir.path });

describe("vouch cancel", { timeout: 60_000 }, () => {
  test("during a map: the run ends interrupted (130), the request is shown, and resume finishes with no passed node re-run", async () => {
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path, { items: 6, gate: false }));
    const run = start(["run", graph]);
    await run.until((e) => of(e, "node.started").some((s) => s.node === "work"));
    release(w.dir.path, 1);
    release(w.dir.path, 2);
    await run.until((e) => finishedBranches(e).length === 2 && of(e, "node.started").filter((s) => s.node === "work").length === 4);
    const id = runIdOf(run);

    const cancelled = await v(["cancel", id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(`run ${id} cancelled: interrupted (exit 130); resume it with: vouch resume ${id}`);
    const { code, events } = await run.done();
    expect(code).toBe(130);
    const asked = of(events, "run.cancel_requested");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ via: "command", by: { host: expect.any(String), user: expect.any(String) } });
    expect(of(events, "run.finished")[0]).toMatchObject({ status: "interrupted", exit_code: 130, reason: "interrupted" });
    // Its children were stopped: the two branches that were running ended cancelled, the rest never started.
    const work = of(events, "node.finished").filter((f) => f.node === "work");
    expect(
      work
        .filter((f) => f.status === "cancelled")
        .map((f) => f.branch!.index)
        .sort(),
    ).toEqual([2, 3]);
    expect(finishedBranches(events, "cancelled").sort()).toEqual([2, 3, 4, 5]);
    expect(run.err).toContain("cancel requested by");

    const shown = await v(["show", id]);
    expect(shown.stdout).toMatch(/Requests\n {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}cancel {2}— \S+@\S+ \(pid \d+, vouch cancel\)/);
    const json = JSON.parse((await v(["show", id, "--json"])).stdout) as { requests: { kind: string; via: string }[] };
    expect(json.requests).toEqual([expect.objectContaining({ kind: "cancel", via: "command" })]);

    release(w.dir.path, "all");
    const resumed = await v(["resume", id, "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const events2 = parseNdjson(resumed.stdout);
    // No passed branch ran again: session 2 started only the branches session 1 did not pass.
    const passedBefore = finishedBranches(events);
    const ranAgain = of(events2, "node.started")
      .filter((s) => s.node === "work")
      .map((s) => s.branch!.index);
    expect(passedBefore.sort()).toEqual([0, 1]);
    expect(ranAgain.sort()).toEqual([2, 3, 4, 5]);
    expect(of(events2, "node.started").some((s) => s.node === "items")).toBe(false);
    expect(of(events2, "run.finished")[0]).toMatchObject({ status: "passed", exit_code: 0 });
  });

  test("a run that is not running is refused (exit 2), and nothing is recorded", async () => {
    release(w.dir.path, "all");
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path, { gate: false }));
    const ran = await v(["run", graph, "--json"]);
    expect(ran.code).toBe(0);
    const r = await v(["cancel", "last"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not running \(passed, exit 0\): nothing to cancel/);
    expect(r.stderr).not.toMatch(STACK_LINE);
    const json = JSON.parse((await v(["show", "last", "--json"])).stdout) as { requests?: unknown };
    expect(json.requests).toBeUndefined();
    expect((await v(["cancel", "nope"])).code).toBe(2);
    expect((await v(["cancel", "last", "--wait", "soon"])).stderr).toContain("--wait takes a duration");
  });
});

describe("vouch approve / reject from another terminal", { timeout: 60_000 }, () => {
  test("--wait-approvals: a headless run waits at the approval; vouch approve decides it, recorded with who and the note", async () => {
    release(w.dir.path, "all");
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path));
    const run = start(["run", graph, "--wait-approvals"]);
    await run.until((e) => of(e, "node.started").some((s) => s.node === "gate"));
    const id = runIdOf(run);
    const early = await v(["approve", id, "each[0].work"]);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain("has no approval each[0].work waiting for a decision (waiting: gate)");

    const ok = await v(["approve", id, "gate", "--note", "ship it \u001b[31mnow"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`approved gate in run ${id}: the node passed (approved)`);
    expect(ok.stdout).not.toContain("\u001b");
    const { code, events } = await run.done();
    expect(code).toBe(0);
    const gate = of(events, "node.finished").find((f) => f.node === "gate")!;
    expect(gate).toMatchObject({ status: "passed", qualifier: "approved" });
    expect(gate.evidence?.[0]?.detail).toMatch(/^by \S+@\S+ \(vouch approve\): ship it \u001b\[31mnow$/);
    expect(of(events, "run.paused")).toEqual([]);

    const again = await v(["reject", id, "gate"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/gate was already approved at .* a decision recorded in the ledger is final/);
  });

  test("reject with a note fails the node; on a paused run (no --wait-approvals) the decision is taken by resume", async () => {
    release(w.dir.path, "all");
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path));
    const paused = await v(["run", graph, "--json"]);
    expect(paused.code).toBe(4);
    const id = parseNdjson(paused.stdout)[0]!.run;
    const r = await v(["reject", id, "gate", "--note", "not today"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`rejected gate in run ${id} (paused): the run goes on with it when resumed`);
    const second = await v(["approve", id, "gate"]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/gate was already rejected by \S+@\S+ \(vouch reject\) at .*: the first decision stands/);
    const resumed = await v(["resume", id, "--json"]);
    expect(resumed.code).toBe(1);
    const gate = of(parseNdjson(resumed.stdout), "node.finished").find((f) => f.node === "gate")!;
    expect(gate).toMatchObject({ status: "failed", cause: "rejected" });
    expect(gate.error).toMatch(/^gate was rejected by \S+@\S+ \(vouch reject\): not today$/);
    const shown = await v(["show", id]);
    expect(shown.stdout).toMatch(/reject gate: not today {2}— \S+@\S+ \(pid \d+, vouch reject\)/);
  });

  test("--wait-approvals still ends at the run's wall cap: error, reason wall, exit 3", async () => {
    release(w.dir.path, "all");
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path));
    const r = await v(["run", graph, "--json", "--wait-approvals", "--wall", "1s"]);
    expect(r.code).toBe(3);
    const events = parseNdjson(r.stdout);
    expect(of(events, "run.finished")[0]).toMatchObject({ status: "error", reason: "wall" });
    expect(of(events, "run.paused")).toEqual([]);
  });

  test("two decisions at once from two processes: one stands, the run takes that one", async () => {
    release(w.dir.path, "all");
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path));
    const run = start(["run", graph, "--wait-approvals"]);
    await run.until((e) => of(e, "node.started").some((s) => s.node === "gate"));
    const id = runIdOf(run);
    const [a, b] = await Promise.all([v(["approve", id, "gate"]), v(["reject", id, "gate"])]);
    const { events } = await run.done();
    const gate = of(events, "node.finished").find((f) => f.node === "gate")!;
    const won = gate.status === "passed" ? a : b;
    const lost = gate.status === "passed" ? b : a;
    expect(won.code, won.stderr).toBe(0);
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain("the first decision stands");
    expect(of(events, "node.finished").filter((f) => f.node === "gate")).toHaveLength(1);
  });
});

describe("vouch watch", { timeout: 60_000 }, () => {
  test("--json prints the bytes the run's own --json prints, and ends with its exit code", async () => {
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path, { gate: false }));
    const run = start(["run", graph]);
    await run.until((e) => e.length > 0);
    const id = runIdOf(run);
    const watch = Bun.spawn([BINARY, "watch", id, "--json"], {
      cwd: w.dir.path,
      env: cleanEnv({ home: w.home }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const plain = Bun.spawn([BINARY, "show", id, "--follow"], {
      cwd: w.dir.path,
      env: cleanEnv({ home: w.home }),
      stdout: "pipe",
      stderr: "pipe",
    });
    release(w.dir.path, "all");
    const { code, events } = await run.done();
    const [out, watchCode, plainOut, plainCode, watchErr, plainErr] = await Promise.all([
      new Response(watch.stdout).text(),
      watch.exited,
      new Response(plain.stdout).text(),
      plain.exited,
      new Response(watch.stderr).text(),
      new Response(plain.stderr).text(),
    ]);
    expect([code, watchCode, plainCode], `watch: ${watchErr}\nshow --follow: ${plainErr}`).toEqual([0, 0, 0]);
    expect(out).toBe(run.out);
    expect(parseNdjson(out)).toEqual(events);
    expect(plainOut).toContain("■ run passed · exit 0");
  });

  test("--plain shows the lines the run's own --plain shows", async () => {
    release(w.dir.path, "all");
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path, { gate: false }));
    const ran = Bun.spawn([BINARY, "run", graph, "--plain"], {
      cwd: w.dir.path,
      env: cleanEnv({ home: w.home }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [ranOut, ranCode] = await Promise.all([new Response(ran.stdout).text(), ran.exited]);
    const watched = await v(["watch", "last", "--plain"]);
    expect([ranCode, watched.code]).toEqual([0, 0]);
    expect(watched.stdout).toBe(ranOut);
  });

  test("a run whose process was killed -9 ends the watch with exit 3, naming resume", async () => {
    const graph = writeGraph(w.dir.path, gatedMapGraph(w.dir.path, { gate: false }));
    const run = start(["run", graph]);
    await run.until((e) => of(e, "node.started").some((s) => s.node === "work"));
    const id = runIdOf(run);
    const watch = Bun.spawn([BINARY, "watch", id, "--json"], {
      cwd: w.dir.path,
      env: cleanEnv({ home: w.home }),
      stdout: "pipe",
      stderr: "pipe",
    });
    run.proc.kill("SIGKILL");
    await run.proc.exited;
    // vouch's -9 leaves its two scripts polling for their go file (50 forks a second each, for
    // ever once the folder is removed): let them end.
    release(w.dir.path, "all");
    const [out, err, code] = await Promise.all([new Response(watch.stdout).text(), new Response(watch.stderr).text(), watch.exited]);
    expect(code).toBe(3);
    expect(err).toContain(`run ${id} ended without finishing: the process recording it is gone (resume it with: vouch resume ${id})`);
    expect(parseNdjson(out).length).toBeGreaterThan(0);
    expect(parseNdjson(out).every((e: VouchEvent) => eventSchema.safeParse(e).success)).toBe(true);
    // What the -9 left behind ends once released: the suite leaves no process polling.
    expect(await eventually(() => processesWith(`${w.dir.path}/go-`).length === 0, 30_000)).toBe(true);
  });

  test("watch and cancel of an unknown run are usage errors (exit 2) without a stack trace", async () => {
    const r = await v(["watch", "nope"]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect((await v(["watch", "a", "b"])).code).toBe(2);
    expect((await v(["watch", "x", "--json", "--plain"])).stderr).toContain("--json and --plain exclude each other");
    expect((await v(["show", "x", "--follow", "--tui"])).code).toBe(2);
  });
});
