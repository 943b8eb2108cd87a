// A self-report is never evidence by itself (issue 12 item 5): a node whose only
// evidence is its own words matching `result_matches` passes `self-reported`,
// never `verified`, and every run summary — run.finished counts, plain output,
// `vouch show` — counts those passes apart from the rest.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
let graph: string;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("self-reported");
  graph = join(dir.path, "claims.yaml");
  writeFileSync(
    graph,
    `version: 1
name: claims
checks:
  ok: { run: "true" }
nodes:
  claim: { kind: script, run: "echo PASS", success: { result_matches: "PASS" } }
  claim_json: { kind: script, run: 'echo "{\\"ok\\": true}"', output: { format: json }, success: { result_matches: "ok" } }
  proved: { kind: script, run: "echo PASS", success: { result_matches: "PASS", checks: [ok] } }
  plain: { kind: script, run: "true" }
`,
  );
});
afterAll(() => dir.cleanup());
const home = () => join(dir.path, "home");

test("--json: the self-report-only nodes pass self-reported, and run.finished counts them apart", async () => {
  const r = await vouch(["run", graph, "--json"], { home: home() });
  expect(r.code, r.stderr).toBe(0);
  const events = parseNdjson(r.stdout);
  const q = Object.fromEntries(
    events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished").map((e) => [e.node, `${e.status} ${e.qualifier}`]),
  );
  expect(q).toEqual({
    claim: "passed self-reported",
    claim_json: "passed self-reported",
    proved: "passed verified",
    plain: "passed exit-only",
  });
  const fin = events.at(-1) as EventOf<"run.finished">;
  expect(fin.counts).toEqual({ passed: 4, self_reported: 2, failed: 0, error: 0, skipped: 0, cancelled: 0 });
}, 30_000);

test("plain output and vouch show say how many passes are only self-reported", async () => {
  const r = await vouch(["run", graph, "--plain"], { home: home() });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("\n  4 passed (2 self-reported)\n");
  const shown = await vouch(["show", "last"], { home: home() });
  expect(shown.stdout).toContain("\nnodes    4 passed (2 self-reported), 0 failed, 0 error, 0 skipped, 0 cancelled\n");
  expect(shown.stdout).toMatch(/\nclaim +passed \(self-reported\)/);
}, 30_000);
