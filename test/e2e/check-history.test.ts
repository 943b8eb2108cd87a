// A check's history through dist/vouch (ADR 0067): `vouch checks --history` over a ledger
// whose earlier runs passed and failed one check on one tree; `vouch validate` warns of it
// where the graph writes it (by name and command: a changed command is not warned of); the
// run's plain lines name it at the start. The earlier runs are written through the ledger's
// own API, as vouch records them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { commandDigest } from "../../src/engine/check-digest.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "../ledger/events-fixture.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("history");
}, 180_000);
afterAll(() => dir.cleanup());

const RUN = "exit 0";
const GRAPH = `version: 1
name: history-demo
checks:
  tests: { run: "${RUN}" }
  lint: { run: "true" }
nodes:
  s:
    kind: script
    run: "true"
    success: { checks: [tests, lint] }
`;

/** Runs r1..rN: `tests` (this graph's command) on tree T passed in odd runs, failed in even ones;
 *  `lint` passed every time; `old-tests`, another command under the name tests, failed once. */
function recordHistory(home: string, runs: number): void {
  const ledger = openLedger({ home });
  for (let i = 1; i <= runs; i++) {
    const s = new RunScript(`2026110${i}-000000-00000${i}`);
    s.clock = i * 1000;
    s.started({ graph: "history-demo" });
    s.nodeStarted({ node: "s" }, "script");
    s.check({ node: "s" }, "tests", i % 2 === 1, { command_digest: commandDigest(RUN, "exit_zero"), tree_id: "T" });
    s.check({ node: "s" }, "lint", true, { command_digest: commandDigest("true", "exit_zero"), tree_id: "T" });
    if (i === 1) s.check({ node: "s" }, "tests", false, { command_digest: commandDigest("exit 1", "exit_zero"), tree_id: "U", attempt: 2 });
    s.finished({ node: "s" }, "passed");
    s.runFinished("passed");
    ledger.write(s.events);
  }
  ledger.close();
}

describe("a check's history", () => {
  test("vouch checks --history: counts, trees that passed and failed, the mark; NAME narrows; --json", async () => {
    const home = join(dir.path, "home-a");
    recordHistory(home, 4);
    const r = await vouch(["checks", "--history"], { home });
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe(`Checks over their last 20 runs (${home}):`);
    expect(lines[1]).toMatch(/^CHECK\s+RUNS\s+PASS\s+FAIL\s+FLAKY\s+COULD NOT RUN\s+FLAKE RATE\s+TREES PASS\+FAIL$/);
    expect(lines[2]).toMatch(/^lint\s+4\s+4\s+0\s+0\s+0\s+0%\s+0$/);
    // Two commands under one name: told apart by their digests, the newest first.
    expect(lines[3]).toMatch(
      new RegExp(
        `^tests \\(${commandDigest(RUN, "exit_zero").slice(7, 19)}\\)\\s+4\\s+2\\s+2\\s+0\\s+0\\s+0%\\s+1\\s+FLAKY \\(4 of 4 runs\\)$`,
      ),
    );
    expect(lines[4]).toMatch(/^tests \([0-9a-f]{12}\)\s+1\s+0\s+1\s+0\s+0\s+0%\s+0$/);
    const one = await vouch(["checks", "lint", "--history", "--json"], { home });
    expect(JSON.parse(one.stdout)).toMatchObject([{ name: "lint", runs: 4, passed: 4, marked: false }]);
    const none = await vouch(["checks", "nope", "--history"], { home });
    expect(none.stdout).toBe(`no outcomes of check "nope" recorded in ${home}\n`);
  });

  test("vouch validate warns of the flaky check where the graph writes it; a changed command is not warned of", async () => {
    const home = join(dir.path, "home-b");
    recordHistory(home, 4);
    const file = join(dir.path, "history.yaml");
    writeFileSync(file, GRAPH);
    const r = await vouch(["validate", file], { home });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `${file}:4:3: check "tests" was flaky in 4 of the last 4 runs (it both failed and passed on one tree)\n` +
        "    hint: see its history with: vouch checks tests --history; a check may declare reruns: N\n",
    );
    expect(r.stderr).toBe("1 file valid, 1 warning\n");
    const json = await vouch(["validate", file, "--json"], { home });
    expect(JSON.parse(json.stdout)).toMatchObject([{ line: 4, col: 3, severity: "warning" }]);
    const changed = join(dir.path, "changed.yaml");
    writeFileSync(changed, GRAPH.replace(`run: "${RUN}"`, 'run: "exit 0 # fixed"'));
    expect((await vouch(["validate", changed], { home })).stdout).toBe("");
  });

  test("a run names its flaky checks in run.started, and the plain lines say so at its start", async () => {
    const home = join(dir.path, "home-c");
    recordHistory(home, 3);
    const file = join(dir.path, "history.yaml");
    writeFileSync(file, GRAPH);
    const plain = await vouch(["run", file, "--plain"], { home, cwd: dir.path });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("  ⚠ check tests flaky in 3 of the last 3 runs\n");
    const json = await vouch(["run", file, "--json"], { home, cwd: dir.path });
    const started = parseNdjson(json.stdout).find((e) => e.type === "run.started");
    // This run's outcome is in the history now: 4 runs, the new one on no tree.
    expect(started).toMatchObject({
      flaky_checks: [{ name: "tests", command_digest: commandDigest(RUN, "exit_zero"), flaky_runs: 3, runs: 4 }],
    });
    const checks = parseNdjson(json.stdout).filter((e) => e.type === "check.finished");
    expect(checks.map((e) => [e.name, e.type === "check.finished" && e.command_digest])).toEqual([
      ["tests", commandDigest(RUN, "exit_zero")],
      ["lint", commandDigest("true", "exit_zero")],
    ]);
  });
});
