// vouch itself killed while harness sittings are live, then resumed.
// SIGTERM is handled: the sittings' groups are stopped, the run is recorded
// interrupted (exit 130). kill -9 cannot be handled: the sittings' groups
// outlive vouch (a grandchild holding the pipe would live on for its 30 s) —
// the next session of the run (`vouch resume`) kills the groups the dead
// session left, from the journal of live groups it kept beside the run's lock.
// (The crash test of script graphs lives in test/resume/; this one is about
// harness sittings and their process groups.)
import { expect, test } from "vitest";
import { agentGraph, FaultCase } from "./fault-run.ts";
import { groupAlive } from "../spawn/helpers.ts";

/** Reads vouch's NDJSON until a node.started of `node` arrived (the sitting is live or about to be). */
async function waitForStart(stdout: ReadableStream<Uint8Array>, node: string): Promise<void> {
  const reader = stdout.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`vouch ended before ${node} started:\n${text}`);
    text += new TextDecoder().decode(value);
    if (text.split("\n").some((l) => l.includes('"type":"node.started"') && l.includes(`"node":"${node}"`))) break;
  }
  reader.releaseLock();
}

test("kill -9 during a sitting whose grandchild holds the pipe: resume kills the left-over group, then finishes", async () => {
  const c = new FaultCase(agentGraph("{ wall: 60s }"), { STUB_SCENARIO: "grandchild", STUB_TURNS: "40", STUB_TURN_MS: "100" });
  try {
    const p = c.spawn(["run", c.graph, "--json", ...c.passEnv()]);
    await waitForStart(p.stdout, "work");
    // Until the stub has recorded itself and its grandchild, the group is not known.
    while (c.recorded().length < 2) await Bun.sleep(20);
    p.kill("SIGKILL");
    expect(await p.exited).toBe(137);
    // The dead vouch could not stop them: the grandchild (sleep 30) lives on.
    const groups = [...new Set(c.recorded().map((r) => r.pgid))];
    expect(groups.some(groupAlive)).toBe(true);

    const r = await c.vouch(["resume", "last", "--json"], { STUB_SCENARIO: "success", STUB_TURNS: "1" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^vouch: killed 1 process group left running by an earlier session of this run \(pgid \d+\)\n/);
    expect(groups.filter(groupAlive)).toEqual([]);
    expect(await c.liveGroups()).toEqual([]);
    expect(c.integrity()).toBe("ok");
    const shown = await c.show();
    expect(shown.sessions.map((s) => s.status)).toEqual(["abandoned", "passed"]);
  } finally {
    c.cleanup();
  }
});
