// A human decision recorded in the ledger is final (issue 12 item 3), through
// dist/vouch: after `resume --reject gate`, neither `resume --approve gate` nor
// a plain resume runs what the gate guarded; a second decision is refused
// (exit 2) with a message naming the earlier one and when it was recorded.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { ensureBinary, ledgerEvents, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  p = tempProject();
  p.write(
    "gated.yaml",
    `version: 1
name: gated
nodes:
  build: { kind: script, run: 'echo x >> effect-build' }
  gate: { kind: approval, needs: [build], prompt: "Ship?" }
  ship: { kind: script, needs: [gate], run: 'echo x >> effect-ship; test ! -e make-ship-fail' }
`,
  );
});
afterEach(() => p.cleanup());

const lines = (node: string) =>
  existsSync(join(p.dir, `effect-${node}`))
    ? readFileSync(join(p.dir, `effect-${node}`), "utf8")
        .split("\n")
        .filter(Boolean).length
    : 0;

async function decided(flag: "--approve" | "--reject"): Promise<{ id: string; at: string }> {
  const r = await vouch(p, ["run", "gated.yaml"]);
  expect(r.code, r.stderr).toBe(4);
  const id = /run (\S+) started/.exec(r.stdout)![1]!;
  await vouch(p, ["resume", id, flag, "gate"]);
  const fin = ledgerEvents(p, id).filter((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === "gate");
  expect(fin).toHaveLength(1);
  return { id, at: fin[0]!.t };
}

test("rejected, then --approve: refused (exit 2) naming the rejection and its time; ship never runs", async () => {
  const { id, at } = await decided("--reject");
  const r = await vouch(p, ["resume", id, "--approve", "gate"]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain(`gate was already rejected at ${at}`);
  expect(r.stderr).toContain("a decision recorded in the ledger is final");
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect([lines("build"), lines("ship")]).toEqual([1, 0]);
  expect((await vouch(p, ["show", id])).stdout).toMatch(/\ngate +failed .*rejected/);
  // The same decision again is refused too: there is nothing left to decide.
  const again = await vouch(p, ["resume", id, "--reject", "gate"]);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain(`gate was already rejected at ${at}`);
}, 30_000);

test("rejected, then a plain resume: the rejection stands (the gate is not asked again), exit 1, ship never runs", async () => {
  const { id } = await decided("--reject");
  const r = await vouch(p, ["resume", id]);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect([lines("build"), lines("ship")]).toEqual([1, 0]);
  const events = ledgerEvents(p, id);
  expect(events.some((e) => e.type === "run.paused" && events.indexOf(e) > events.findIndex((x) => x.type === "run.finished"))).toBe(false);
  const gates = events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === "gate");
  expect(gates.map((g) => [g.status, g.cause])).toEqual([
    ["failed", "rejected"],
    ["failed", "rejected"],
  ]);
  expect(events.filter((e) => e.type === "node.started" && e.node === "ship")).toHaveLength(0);
}, 30_000);

test("approved, ship failed, then --reject: refused (exit 2) naming the approval and its time", async () => {
  p.write("make-ship-fail", "");
  const { id, at } = await decided("--approve");
  expect(lines("ship")).toBe(1);
  const r = await vouch(p, ["resume", id, "--reject", "gate"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`gate was already approved at ${at}`);
  expect(lines("ship")).toBe(1);
}, 30_000);
