// vouch itself killed while harness sittings are live, then resumed.
// SIGTERM is handled: the sittings' groups are stopped, the run is recorded
// interrupted (exit 130). kill -9 cannot be handled: the sittings' groups
// outlive vouch (a grandchild holding the pipe would live on for its 30 s) —
// the next session of the run (`vouch resume`) kills the groups the dead
// session left, from the journal of live groups it kept beside the run's lock.
// (The crash test of script graphs lives in test/resume/; this one is about
// harness sittings and their process groups.)
import { expect, test } from "vitest";
import { agentGraph, FaultCase, UNSEALED } from "./fault-run.ts";
import { groupAlive } from "../spawn/helpers.ts";

/** A small seeded PRNG (mulberry32): the same seed replays the same kills. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
    const p = c.spawn(["run", c.graph, "--json", ...UNSEALED, ...c.passEnv()]);
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

// Three claude nodes (a, then b and c at once), each sitting ~1 s and forking a
// grandchild that holds the pipe. Sessions are killed at seeded random moments
// with SIGKILL or SIGTERM, then resumed, until one is let finish.
const THREE = `version: 1
name: three
defaults: { harness: claude, caps: { wall: 60s } }
nodes:
  a: { kind: agent, prompt: first }
  b: { kind: agent, prompt: second, needs: [a] }
  c: { kind: agent, prompt: third, needs: [a] }
`;
const KILLS = 6;

test(`${KILLS} kills at seeded random moments (SIGKILL or SIGTERM), each resumed: no orphan, ledger sound, nothing passed twice`, async () => {
  const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`[faults] kill-resume seed ${seed} (FAULT_SEED=${seed} replays it)`);
  const random = prng(seed);
  const c = new FaultCase(THREE, { STUB_SCENARIO: "grandchild", STUB_TURNS: "8", STUB_TURN_MS: "100" });
  const expected: { signal: string; session: number }[] = [];
  try {
    let session = 0;
    let finished = false;
    for (let k = 0; k < KILLS; k++) {
      const args = session === 0 ? ["run", c.graph, "--json", ...c.passEnv()] : ["resume", "last", "--json"];
      const p = c.spawn(args);
      session++;
      // After run.started (vouch's signal handlers are in place), a random moment.
      const reader = p.stdout.getReader();
      await reader.read();
      reader.releaseLock();
      const signal = random() < 0.5 ? "SIGKILL" : "SIGTERM";
      const delay = Math.floor(random() * 1500);
      const ended = await Promise.race([p.exited.then(() => true), Bun.sleep(delay).then(() => false)]);
      if (ended) {
        console.log(`[faults] session ${session} finished before its kill (${delay} ms)`);
        finished = true;
        break;
      }
      p.kill(signal);
      const code = await p.exited;
      const status = (await c.show()).sessions[session - 1]!.status;
      console.log(`[faults] session ${session}: ${signal} after ${delay} ms -> exit ${code}, ${status}`);
      if (status === "passed") {
        finished = true; // the kill came after the run finished
        break;
      }
      if (signal === "SIGTERM") {
        // Handled: interrupted, and vouch stopped every group before exiting.
        expect([code, status]).toEqual([130, "interrupted"]);
        expect(await c.liveGroups()).toEqual([]);
      } else expect([code, status]).toEqual([137, "abandoned"]);
      expect(c.integrity()).toBe("ok");
      expected.push({ signal, session });
    }
    if (!finished) {
      const last = await c.vouch(["resume", "last", "--json"]);
      expect(last.code, last.stderr).toBe(0);
    }
    expect(await c.liveGroups()).toEqual([]);
    expect(c.integrity()).toBe("ok");
    const shown = await c.show();
    expect(shown.run.status).toBe("passed");
    for (const { signal, session: n } of expected) {
      expect(shown.sessions[n - 1]!.status).toBe(signal === "SIGTERM" ? "interrupted" : "abandoned");
    }
    // Nothing that passed ran again: each node has exactly one passed attempt.
    const full = JSON.parse((await c.vouch(["show", "last", "--json"])).stdout) as {
      nodes: { node: string; attempts: { status: string }[] }[];
    };
    for (const n of full.nodes)
      expect(
        n.attempts.filter((a) => a.status === "passed"),
        n.node,
      ).toHaveLength(1);
  } finally {
    c.cleanup();
  }
}, 90_000);
