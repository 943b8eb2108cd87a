// VOUCH_LEDGER=off, the benchmark switch behind bench/ledger-overhead.ts (ADR
// 0009): the same events reach the output, nothing is recorded, and it says so.
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { ensureBinary, ndjson, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  p = tempProject();
  p.write(
    "graph.yaml",
    `version: 1\nname: tiny\nnodes:\n  a: { kind: script, argv: ["true"] }\n  b: { kind: script, needs: [a], argv: ["false"] }\n`,
  );
});
afterEach(() => p.cleanup());

const shape = (stdout: string) => ndjson(stdout).map((e) => `${e.seq} ${e.type}${"node" in e ? ` ${e.node}` : ""}`);

test("off: the same events and exit code as a recorded run, a note on stderr, and no run in the ledger", async () => {
  const recorded = await vouch(p, ["run", "graph.yaml", "--json"]);
  const off = await vouch(p, ["run", "graph.yaml", "--json"], { VOUCH_LEDGER: "off" });
  expect(off.code).toBe(recorded.code);
  expect(off.code).toBe(1);
  expect(shape(off.stdout)).toEqual(shape(recorded.stdout));
  expect(off.stderr).toBe("vouch: VOUCH_LEDGER=off: this run is not recorded (a benchmark switch): it cannot be shown or resumed\n");
  const runs = JSON.parse((await vouch(p, ["runs", "--json"])).stdout) as { id: string }[];
  expect(runs.map((r) => r.id)).toEqual([ndjson(recorded.stdout)[0]!.run]);
}, 30_000);

test("a resume cannot be unrecorded, and a value other than off is refused: exit 2", async () => {
  await vouch(p, ["run", "graph.yaml"]);
  const resume = await vouch(p, ["resume", "last"], { VOUCH_LEDGER: "off" });
  expect(resume).toMatchObject({
    code: 2,
    stdout: "",
    stderr: "vouch: VOUCH_LEDGER=off cannot resume a run: a resumed session must be recorded\nhint: unset VOUCH_LEDGER\n",
  });
  const other = await vouch(p, ["run", "graph.yaml"], { VOUCH_LEDGER: "no" });
  expect(other).toMatchObject({ code: 2, stdout: "" });
  expect(other.stderr).toBe(
    'vouch: VOUCH_LEDGER="no": the only value it takes is "off" (a benchmark switch)\nhint: unset VOUCH_LEDGER to record the run\n',
  );
  // Neither started a session: the run still has one.
  const [run] = JSON.parse((await vouch(p, ["runs", "--json"])).stdout) as { sessions: number }[];
  expect(run!.sessions).toBe(1);
}, 30_000);
