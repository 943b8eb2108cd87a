// A resume the harnesses would refuse (the graph changed under --force) is refused
// like a run: exit 2, nothing started, and the run's lock let go.
import { afterAll, beforeAll, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("resume-refusal");
});
afterAll(() => dir?.cleanup());

test("a resume the harness would refuse (graph changed, --force) exits 2, starts nothing and lets the run go", async () => {
  const graph = join(dir.path, "refuse.yaml");
  const home = join(dir.path, "home3");
  writeFileSync(graph, 'version: 1\nname: r\nnodes:\n  a: { kind: script, run: "exit 1" }\n');
  expect((await vouch(["run", graph, "--json"], { home })).code).toBe(1);
  writeFileSync(
    graph,
    'version: 1\nname: r\nnodes:\n  a: { kind: script, run: "exit 1" }\n  b: { kind: agent, harness: codex, prompt: p, caps: { budget_usd: 1 } }\n',
  );
  const refused = await vouch(["resume", "last", "--force", "--json"], { home });
  expect(refused.code).toBe(2);
  expect(refused.stdout).toBe("");
  expect(refused.stderr).toContain('harness "codex"');
  // The lock was let go: the run is not live, and no session was added.
  const runs = JSON.parse((await vouch(["runs", "--json"], { home })).stdout) as { status: string; live?: boolean }[];
  expect(runs[0]).toMatchObject({ status: "failed" });
  expect(runs[0]!.live ?? false).toBe(false);
});
