// A resumed run keeps the outputs of what passed and hands them to what runs
// again (docs/architecture.md §8), through dist/vouch: each output carries the pid of the
// process that printed it, so a re-run would show a different one.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { ensureBinary, ledgerEvents, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  p = tempProject();
  // a: prints a token. each: one branch per item, each printing its own token;
  // item 2 fails until `ok` exists. b: needs a's output and `ok`. collect: sees
  // the map's results. b and collect copy the state they were given.
  p.write(
    "graph.yaml",
    `version: 1
name: keeps
nodes:
  a: { kind: script, run: 'echo "{\\"token\\": \\"a-$$\\", \\"items\\": [1, 2, 3]}"', output: { format: json } }
  b: { kind: script, needs: [a], run: 'cp "$VOUCH_STATE_FILE" state-b.json; test -f ok' }
  each:
    kind: map
    needs: [a]
    over: nodes.a.output.items
    branch:
      one:
        kind: script
        run: 'i=$(cat "$VOUCH_ITEM_FILE"); if [ "$i" = 2 ] && [ ! -f ok ]; then exit 1; fi; echo "{\\"token\\": \\"$i-$$\\"}"'
        output: { format: json }
  collect: { kind: script, needs: [each], run: 'cp "$VOUCH_STATE_FILE" state-collect.json' }
`,
  );
});
afterEach(() => p.cleanup());

type Finished = EventOf<"node.finished">;
const state = (name: string) => JSON.parse(readFileSync(join(p.dir, `state-${name}.json`), "utf8"));

test("resume re-runs only b and the failed branch; both see the outputs recorded by the first session", async () => {
  const first = await vouch(p, ["run", "graph.yaml", "--json"]);
  expect(first.code).toBe(1);
  const id = (JSON.parse(first.stdout.split("\n")[0]!) as { run: string }).run;
  const before = ledgerEvents(p, id).filter((e): e is Finished => e.type === "node.finished");
  const aOutput = before.find((e) => e.node === "a")!.output as { token: string };
  const branchTokens = (i: number, events: Finished[]) =>
    (events.find((e) => e.node === "one" && e.branch?.index === i && e.status === "passed")?.output as { token: string } | undefined)
      ?.token;
  expect(before.map((e) => `${e.node}${e.branch ? `#${e.branch.index}` : ""} ${e.status}`).sort()).toEqual([
    "a passed",
    "b failed",
    "collect skipped",
    "each failed",
    "one#0 passed",
    "one#1 failed",
    "one#2 passed",
  ]);

  writeFileSync(join(p.dir, "ok"), "");
  const resumed = await vouch(p, ["resume", id, "--json"]);
  expect(resumed.code, resumed.stderr).toBe(0);
  const session2 = resumed.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e: { type: string }) => e.type === "node.started") as EventOf<"node.started">[];
  // Only what did not pass ran again: b, the map (to collect), its failed branch, and collect.
  expect(session2.map((e) => `${e.node}${e.branch ? `#${e.branch.index}` : ""}`).sort()).toEqual(["b", "collect", "each", "one#1"]);

  // b saw a's output from the first session (a did not run again: same pid in the token).
  expect(state("b").nodes.a).toMatchObject({ status: "passed", output: aOutput });
  // collect saw every branch: the kept ones with their first-session outputs, the re-run one with its new output.
  const all = ledgerEvents(p, id).filter((e): e is Finished => e.type === "node.finished");
  const results = state("collect").nodes.each.results as { index: number; status: string; output: { token: string } }[];
  expect(results.map((r) => [r.index, r.status, r.output.token])).toEqual([
    [0, "passed", branchTokens(0, before)],
    [1, "passed", branchTokens(1, all)],
    [2, "passed", branchTokens(2, before)],
  ]);
  expect(branchTokens(1, all)).toMatch(/^2-\d+$/);
}, 30_000);

test("resumed from another folder: commands still run where the run started, and see its outputs", async () => {
  const first = await vouch(p, ["run", "graph.yaml", "--json"]);
  expect(first.code).toBe(1);
  const elsewhere = join(p.dir, "elsewhere");
  mkdirSync(elsewhere);
  writeFileSync(join(p.dir, "ok"), "");
  const resumed = await vouch(p, ["resume", "last"], {}, elsewhere);
  expect(resumed.code, resumed.stderr).toBe(0);
  // b ran in the run's folder (it found `ok` there and wrote its state there).
  expect(state("b").nodes.a.status).toBe("passed");
  expect(readdirSync(elsewhere)).toEqual([]);
}, 30_000);
