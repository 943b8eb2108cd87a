// Many runs started at once in one ledger (issue 12 item 8): every start gets
// its own id, none exits 3 on a clash, and every id still resolves by prefix.
// Before the fix an id was its start second plus 4 random hex digits, taken
// on luck: 1,000 starts in one second clashed about a dozen times (exit 3,
// "UNIQUE constraint failed: events.run_id, events.seq").
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runsOf, tempDir, vouch, type TempDir } from "./helpers.ts";

const STARTS = 150;

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("ids");
});
afterAll(() => dir.cleanup());

describe(`${STARTS} concurrent \`vouch run\` in one VOUCH_HOME`, () => {
  test("all pass with distinct, prefix-resolvable ids; none exits 3", async () => {
    const graph = join(dir.path, "trivial.yaml");
    writeFileSync(graph, "version: 1\nname: trivial\nnodes:\n  done:\n    kind: end\n");
    const home = join(dir.path, "home");
    const ran = await Promise.all(Array.from({ length: STARTS }, () => vouch(["run", graph, "--json"], { home })));
    const failures = ran.filter((r) => r.code !== 0).map((r) => `exit ${r.code}: ${r.stderr.trim()}`);
    expect(failures).toEqual([]);
    const runs = await runsOf(home);
    expect(runs).toHaveLength(STARTS);
    expect(new Set(runs.map((r) => r.id)).size).toBe(STARTS);
    for (const r of runs) expect(r.id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    // A prefix one character short of the id still names that one run.
    const sample = runs[0]!.id;
    const shown = await vouch(["show", sample.slice(0, -1), "--json"], { home });
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { run: { id: string } }).run.id).toBe(sample);
  }, 240_000);
});
