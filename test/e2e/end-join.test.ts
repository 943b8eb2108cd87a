// An end node speaks only for work whose result reached it (issue 12 item 1,
// review): a failed script whose dependent was skipped does not become
// "accounted for" because a join end that needs that dependent still ran.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  dir = tempDir("end-join");
});
afterEach(() => dir.cleanup());

test("tests exits 1, publish (needs tests) is skipped, done (needs publish and lint) runs: the run is failed, exit 1", async () => {
  const graph = join(dir.path, "g.yaml");
  writeFileSync(
    graph,
    [
      "version: 1",
      "name: join",
      "nodes:",
      '  tests: { kind: script, run: "exit 1" }',
      '  publish: { kind: script, run: "echo publish", needs: [tests] }',
      '  lint: { kind: script, run: "true" }',
      "  done: { kind: end, status: success, needs: [publish, lint] }",
      "",
    ].join("\n"),
  );
  const r = await vouch(["run", graph, "--json"], { home: join(dir.path, "home"), cwd: dir.path });
  const events = parseNdjson(r.stdout);
  const status = (id: string) => events.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === id)?.status;
  expect([status("tests"), status("publish"), status("done")]).toEqual(["failed", "skipped", "passed"]);
  expect((events.at(-1) as EventOf<"run.finished">).status).toBe("failed");
  expect(r.code).toBe(1);
});
