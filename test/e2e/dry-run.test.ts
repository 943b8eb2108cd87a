// `vouch run --dry-run` through the real binary: it prints the plan (every
// node, its harness and caps) and starts nothing — no script, no check, no
// agent, no ledger. The same graph run for real leaves a marker per process,
// so the test can tell.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { E2E_GRAPHS, ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("dry");
});
afterAll(() => dir.cleanup());

const GRAPH = join(E2E_GRAPHS, "side-effects.yaml");

function setup(name: string) {
  const root = join(dir.path, name);
  const marks = join(root, "marks");
  mkdirSync(marks, { recursive: true });
  const agent = JSON.stringify(["sh", "-c", `touch '${marks}/agent-ran'; echo hi`]);
  return { root, marks, home: join(root, "home"), env: { VOUCH_COMMAND: agent } };
}

describe("vouch run --dry-run", () => {
  test("prints the plan and runs nothing: no marker, no ledger", async () => {
    const s = setup("plain");
    const r = await vouch(["run", GRAPH, "-i", `marks=${s.marks}`, "--dry-run"], { home: s.home, env: s.env, cwd: s.root });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n")).toEqual([
      `dry run of side-effects (${GRAPH}): nothing was started`,
      `inputs: marks=${JSON.stringify(s.marks)}`,
      "run: concurrency 4",
      "  first  script",
      "  ask    agent    command wall 30s, idle 15m (default)",
      "sandbox: 1 sealed, 1 unsealed (a script without a workspace runs unconfined in the shared folder)",
      "",
    ]);
    expect(readdirSync(s.marks)).toEqual([]);
    expect(existsSync(s.home)).toBe(false);
  });

  test("--json prints the plan as one JSON document, still running nothing", async () => {
    const s = setup("json");
    const r = await vouch(["run", GRAPH, "-i", `marks=${s.marks}`, "--dry-run", "--json"], { home: s.home, env: s.env, cwd: s.root });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { graph: string; order: string[]; refusals: unknown[]; nodes: { id: string; harness?: string }[] };
    expect(plan).toMatchObject({ graph: "side-effects", order: ["first", "ask"], refusals: [] });
    expect(plan.nodes.map((n) => [n.id, n.harness ?? null])).toEqual([
      ["first", null],
      ["ask", "command"],
    ]);
    expect(readdirSync(s.marks)).toEqual([]);
    expect(existsSync(s.home)).toBe(false);
  });

  test("a refusal is shown under its node and the dry run exits 2", async () => {
    const s = setup("refused");
    const r = await vouch(["run", GRAPH, "-i", `marks=${s.marks}`, "--dry-run"], { home: s.home, cwd: s.root }); // no VOUCH_COMMAND
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(
      '  ask    agent    command wall 30s, idle 15m (default)\n         refused: harness "command": no program to run: set VOUCH_COMMAND',
    );
    expect(r.stderr).toBe("vouch: 1 refusal: the run would not start\n");
    expect(readdirSync(s.marks)).toEqual([]);
  });

  test("control: the same graph run for real leaves every marker (the markers can tell)", async () => {
    const s = setup("real");
    const r = await vouch(["run", GRAPH, "-i", `marks=${s.marks}`, "--json"], { home: s.home, env: s.env, cwd: s.root });
    expect(r.code).toBe(0);
    expect(readdirSync(s.marks).sort()).toEqual(["agent-ran", "check-ran", "script-ran"]);
    expect(existsSync(s.home)).toBe(true);
  });
});
