// Operating a sealed run from another process (issues 31 and 26, ADR 0062/0040), through
// the real binary: a run whose sittings are sealed (--sandbox required) is cancelled by
// `vouch cancel`, resumed with the run's own sandbox setting (or another, given), watched
// with `vouch watch`, and its approval decided by `vouch approve` — while a sealed sitting
// that tries `vouch cancel` on its own run cannot reach the ledger and changes nothing.
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanEnv, parseNdjson, vouch } from "./helpers.ts";
import { HAVE_BWRAP } from "../spawn/helpers.ts";
import { remoteWorld, type Coordinator, finishedBranches, of, release, writeGraph } from "./remote-helpers.ts";

const w = remoteWorld("remote-sealed");
const start = (args: string[]) => w.start(args);
const v = (args: string[]) => vouch(args, { home: w.home, cwd: w.dir.path });

/** A map over 1..3 whose branches wait for go-N, an approval, a last script; beside them a
 *  sitting that tries to cancel its own run through the ledger (it knows where it is). */
function sealedGraph(d: string): string {
  const wait = `i=$(cat "$VOUCH_ITEM_FILE"); while [ ! -e '${d}/go-'$i ] && [ ! -e '${d}/go-all' ]; do sleep 0.02; done; echo "did $i"`;
  const selfCancel = `VOUCH_HOME='${join(d, ".vouch")}' '${BINARY}' cancel "$VOUCH_RUN_ID" > '${d}/self.txt' 2>&1; echo "exit $?" >> '${d}/self.txt'`;
  return `version: 1
name: sealed-gated
nodes:
  self:
    kind: script
    run: ${JSON.stringify(selfCancel)}
  items:
    kind: script
    run: "echo '[1,2,3]'"
    output: { format: json }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    max_concurrency: 2
    branch:
      work:
        kind: script
        run: ${JSON.stringify(wait)}
  gate:
    kind: approval
    needs: [each, self]
    prompt: "ship it?"
  after:
    kind: script
    needs: [gate]
    run: "echo shipped"
`;
}

describe.skipIf(!HAVE_BWRAP)("a sealed run operated from another process", { timeout: 90_000 }, () => {
  test("cancel, resume (the run's --sandbox kept), watch and approve; a sealed sitting cannot cancel its own run", async () => {
    const graph = writeGraph(w.dir.path, sealedGraph(w.dir.path));
    const run = start(["run", graph, "--sandbox", "required"]);
    await run.until(
      (e) => of(e, "node.started").filter((s) => s.node === "work").length === 2 && of(e, "node.finished").some((f) => f.node === "self"),
    );
    release(w.dir.path, 1);
    await run.until((e) => finishedBranches(e).length === 1 && of(e, "node.started").filter((s) => s.node === "work").length === 3);
    const id = run.events()[0]!.run;

    // The sitting ran sealed and its cancel found no run: the ledger is hidden from it.
    const self = readFileSync(join(w.dir.path, "self.txt"), "utf8");
    expect(self).not.toMatch(/^exit 0$/m);
    expect(self).not.toContain("cancelled");
    expect(of(run.events(), "node.finished").find((f) => f.node === "self")).toMatchObject({ status: "passed", sealed: true });
    expect(of(run.events(), "run.cancel_requested")).toEqual([]);
    expect(
      of(run.events(), "node.started")
        .filter((s) => s.node === "work")
        .every((s) => s.sealed === true),
    ).toBe(true);

    const cancelled = await v(["cancel", id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    const first = await run.done();
    expect(first.code).toBe(130);
    expect(of(first.events, "run.started")[0]).toMatchObject({ sandbox: "required" });
    expect(of(first.events, "run.cancel_requested")).toHaveLength(1);

    // Resume without --sandbox keeps the run's; a watcher follows both sessions.
    release(w.dir.path, "all");
    const resumed = start(["resume", id, "--wait-approvals"]);
    await resumed.until((e) => e.length > 0);
    const watch = Bun.spawn([BINARY, "watch", id, "--json"], {
      cwd: w.dir.path,
      env: cleanEnv({ home: w.home }),
      stdout: "pipe",
      stderr: "pipe",
    });
    await resumed.until((e) => of(e, "node.started").some((s) => s.node === "gate"));
    expect(of(resumed.events(), "run.started")[0]).toMatchObject({ sandbox: "required" });
    const again = of(resumed.events(), "node.started").filter((s) => s.node === "work");
    expect(again.map((s) => s.branch!.index).sort()).toEqual([1, 2]);
    expect(again.every((s) => s.sealed === true)).toBe(true);

    const approved = await v(["approve", id, "gate", "--note", "sealed and fine"]);
    expect(approved.code, approved.stderr).toBe(0);
    const second = await resumed.done();
    expect(second.code, resumed.err).toBe(0);
    expect(of(second.events, "run.finished")[0]).toMatchObject({ status: "passed", exit_code: 0 });
    const [watched, watchCode] = await Promise.all([new Response(watch.stdout).text(), watch.exited]);
    expect(watchCode).toBe(0);
    expect(watched.endsWith(resumed.out)).toBe(true);
    expect(parseNdjson(watched).filter((e) => e.type === "run.started")).toHaveLength(2);
  });

  test("resume --sandbox off runs the rest unsealed, and says so on the events", async () => {
    const graph = writeGraph(w.dir.path, sealedGraph(w.dir.path));
    const run = start(["run", graph, "--sandbox", "required"]);
    // Wait for `self` too: cut short here, the resume below would run it again unsealed
    // (--sandbox off), where its `vouch cancel` reaches the ledger and rightly cancels the
    // resumed run (exit 130, "cancel requested by …": seen once under load).
    await run.until(
      (e) => of(e, "node.started").filter((s) => s.node === "work").length === 2 && of(e, "node.finished").some((f) => f.node === "self"),
    );
    const id = run.events()[0]!.run;
    expect((await v(["cancel", id])).code).toBe(0);
    expect((await run.done()).code).toBe(130);

    release(w.dir.path, "all");
    const resumed = start(["resume", id, "--sandbox", "off", "--approve", "gate"]);
    const { code, events } = await resumed.done();
    expect(code, resumed.err).toBe(0);
    expect(of(events, "run.started")[0]).toMatchObject({ sandbox: "off" });
    const work = of(events, "node.finished").filter((f) => f.node === "work");
    expect(work.length).toBeGreaterThan(0);
    expect(work.every((f) => f.sealed === false && f.unsealed_reason === "sandbox: off")).toBe(true);
  });
});
