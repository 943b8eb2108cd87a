// Approvals through dist/vouch (docs/architecture.md §5, docs/graph-language.md): a run pauses at an approval
// node (exit 4), `vouch show` names what it waits for, and `vouch resume RUN
// --approve|--reject NODE` decides it; what passed before the pause is kept.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
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
  build: { kind: script, run: 'echo x >> effect-build; echo "{\\"v\\": 7}"', output: { format: json } }
  gate: { kind: approval, needs: [build], prompt: "Ship build {{ nodes.build.output.v }}?" }
  ship: { kind: script, needs: [gate], run: 'echo x >> effect-ship' }
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

async function pausedRun(): Promise<string> {
  const r = await vouch(p, ["run", "gated.yaml"]);
  expect(r.code, r.stderr).toBe(4);
  const id = /run (\S+) started/.exec(r.stdout)![1]!;
  expect(r.stdout).toContain(`vouch resume ${id} --approve gate  (or --reject gate)`);
  return id;
}

test("paused (exit 4), shown as waiting with the command; --approve runs the rest (exit 0) without re-running build", async () => {
  const id = await pausedRun();
  const shown = await vouch(p, ["show", id]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain("\nstatus   paused, exit 4, approval\n");
  expect(shown.stdout).toMatch(/\ngate +waiting +-/);
  expect(shown.stdout).toContain(
    `\nWaiting for approval\n  gate: Ship build 7?\n    decide with: vouch resume ${id} --approve gate   (or --reject gate)\n`,
  );
  const json = JSON.parse((await vouch(p, ["show", id, "--json"])).stdout);
  expect(json.nodes.find((n: { node: string }) => n.node === "gate").status).toBe("waiting");
  expect(json.sessions.at(-1).paused).toEqual([{ node: "gate", prompt: "Ship build 7?" }]);

  const r = await vouch(p, ["resume", id, "--approve", "gate"]);
  expect(r.code, r.stderr).toBe(0);
  expect([lines("build"), lines("ship")]).toEqual([1, 1]);
  const after = await vouch(p, ["show", id]);
  expect(after.stdout).toMatch(/\ngate +passed \(approved\)/);
  expect(after.stdout).not.toContain("Waiting for approval");
  expect(ledgerEvents(p, id).filter((e) => e.type === "node.started" && e.node === "build")).toHaveLength(1);
}, 30_000);

test("--reject: the gate fails, ship never runs, exit 1", async () => {
  const id = await pausedRun();
  const r = await vouch(p, ["resume", id, "--reject", "gate"]);
  expect(r.code, r.stderr).toBe(1);
  expect([lines("build"), lines("ship")]).toEqual([1, 0]);
  const shown = await vouch(p, ["show", id]);
  expect(shown.stdout).toMatch(/\ngate +failed .*rejected: gate was rejected/);
}, 30_000);

test("a resume without a decision pauses again (exit 4); --approve of a node that is not an approval: exit 2, clear message", async () => {
  const id = await pausedRun();
  expect((await vouch(p, ["resume", id])).code).toBe(4);
  for (const [flag, node] of [
    ["--approve", "build"],
    ["--reject", "nosuch"],
  ] as const) {
    const r = await vouch(p, ["resume", id, flag, node]);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe(`vouch: ${flag} ${node}: the graph has no approval node "${node}" (approval nodes: gate)\n`);
  }
  const both = await vouch(p, ["resume", id, "--approve", "gate", "--reject", "gate"]);
  expect(both.code).toBe(2);
  expect(both.stderr).toBe("vouch: gate cannot be both approved and rejected\n");
  // Refused before anything ran: build still ran once, the gate is still waiting.
  expect([lines("build"), lines("ship")]).toEqual([1, 0]);
  expect((await vouch(p, ["show", id])).stdout).toMatch(/\ngate +waiting/);
}, 30_000);

test("approvals inside a map: show lists each branch's; --approve NODE decides them all", async () => {
  p.write(
    "each.yaml",
    `version: 1
name: gated-each
inputs:
  items: { default: [1, 2] }
nodes:
  each:
    kind: map
    over: inputs.items
    branch:
      ask: { kind: approval, prompt: "Ship {{ item }}?" }
      go: { kind: script, needs: [ask], run: 'echo "$(cat "$VOUCH_ITEM_FILE")" >> effect-go' }
`,
  );
  const r = await vouch(p, ["run", "each.yaml"]);
  expect(r.code).toBe(4);
  const shown = (await vouch(p, ["show", "last"])).stdout;
  expect(shown).toContain("\nWaiting for approval\n  each[0].ask: Ship 1?\n");
  expect(shown).toContain("\n  each[1].ask: Ship 2?\n");
  expect(shown).toMatch(/\n {4}ask +waiting/);
  const approved = await vouch(p, ["resume", "last", "--approve", "ask"]);
  expect(approved.code, approved.stderr).toBe(0);
  expect(readFileSync(join(p.dir, "effect-go"), "utf8").split("\n").filter(Boolean).sort()).toEqual(["1", "2"]);
}, 30_000);
