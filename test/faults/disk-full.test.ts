// A full disk, for real: a tiny tmpfs mounted in the case's temp folder (root
// only; skipped with the reason printed elsewhere), filled by the stub
// harness while its sitting is live, so whatever vouch writes next gets ENOSPC.
//   1. the ledger's folder fills up: exit 3, one clear line, the stub's group
//      killed, the ledger file sound; after freeing space `vouch resume` ends it;
//   2. TMPDIR fills up: a check cannot get its handover files — no evidence,
//      so the node is error (exit 3), never failed.
import { afterEach, expect, test } from "vitest";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { agentGraph, FaultCase } from "./fault-run.ts";

function mountTmpfs(dir: string, size: string): string | null {
  mkdirSync(dir, { recursive: true });
  const r = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir], { stderr: "pipe" });
  return r.exitCode === 0 ? null : r.stderr.toString().trim() || `mount exited ${r.exitCode}`;
}

const mounted: string[] = [];
const cases: FaultCase[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) Bun.spawnSync(["umount", "-l", dir]);
  for (const c of cases.splice(0)) c.cleanup();
});

/** The tmpfs for a case, or null (and the reason printed) where mounting is not allowed. */
function tinyDisk(c: FaultCase, dir: string): boolean {
  const refused = mountTmpfs(dir, "512k");
  if (refused) {
    console.log(`[faults] disk-full case skipped: cannot mount a tmpfs here (${refused}); run the suite as root`);
    return false;
  }
  mounted.push(dir);
  return true;
}

test("the ledger's disk fills during a sitting: exit 3 with a clear message, no orphan, ledger sound, resumable", async (ctx) => {
  // After filling, the stub plays a turn at once (vouch must record it: ENOSPC),
  // then would wait 20 s before the next: vouch must stop the sitting as soon as
  // the commit fails, not when the harness next speaks (it did, before the fix).
  const c = new FaultCase(agentGraph("{ wall: 60s }"), { STUB_SCENARIO: "fill", STUB_TURNS: "3", STUB_TURN_MS: "20000" });
  const played = join(c.dir, "played");
  c.stub("STUB_PLAYED", played);
  cases.push(c);
  if (!tinyDisk(c, c.home)) return ctx.skip();
  const filler = join(c.home, "filler");
  c.stub("STUB_FILL", filler);
  const r = await c.run();
  expect(r.code).toBe(3);
  expect(r.stderr).toBe(
    `vouch: the disk holding ${join(c.home, "ledger.sqlite")} is full while appending events\nhint: free some space and resume the run\n`,
  );
  expect(c.recorded()).toHaveLength(1);
  expect(await c.liveGroups()).toEqual([]);
  expect(readFileSync(played, "utf8")).toBe("turn 1\n");
  expect(c.integrity()).toBe("ok");
  // What was committed is readable: the run started, the node never finished.
  expect(await c.node("work")).toMatchObject({ status: "unfinished" });

  rmSync(filler);
  const resumed = await c.vouch(["resume", "last", "--json"], { STUB_SCENARIO: "success", STUB_TURNS: "1" });
  expect(resumed.code, resumed.stderr).toBe(0);
  const shown = await c.show();
  expect(shown.run).toMatchObject({ status: "passed", exit_code: 0, sessions: 2 });
  expect(shown.sessions.map((s) => s.status)).toEqual(["abandoned", "passed"]);
  expect(c.integrity()).toBe("ok");
  expect(c.recorded()).toHaveLength(2);
  expect(await c.liveGroups()).toEqual([]);
});

test("TMPDIR is full when a check needs its files: the node is error harness_error (no evidence), exit 3", async (ctx) => {
  const c = new FaultCase(agentGraph("{ wall: 20s }", '    success: { checks: [{ name: tests, run: "true" }] }\n'), {
    STUB_SCENARIO: "fill",
  });
  cases.push(c);
  const tmp = join(c.dir, "tmp");
  if (!tinyDisk(c, tmp)) return ctx.skip();
  c.stub("STUB_FILL", join(tmp, "filler"));
  const r = await c.run([], { TMPDIR: tmp });
  expect(r.code, r.stderr).toBe(3);
  const node = await c.node("work");
  expect(node).toMatchObject({ status: "error", stop_reason: "complete", cause: "harness_error" });
  expect(node.error).toMatch(/1 of 1 check could not run: tests \(the check could not run: ENOSPC/);
  expect(c.integrity()).toBe("ok");
  expect(await c.liveGroups()).toEqual([]);
});
