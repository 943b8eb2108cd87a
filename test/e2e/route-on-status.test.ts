// The docs advise routing on a node's status (a merge or a sub-graph takes no
// fallback): the example in docs/graph-language.md, run through the binary
// (issue 27 item 15). Test first: the router was skipped (upstream_not_passed) when
// the node it reads had failed, so nothing could route on a failure.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { ensureBinary, parseNdjson, ROOT, tempDir, vouch, type TempDir } from "./helpers.ts";

beforeAll(() => void ensureBinary(), 120_000);
let dir: TempDir;
beforeEach(() => (dir = tempDir("route-status")));
afterEach(() => dir.cleanup());

/** The docs' example, taken from the page as written. */
function docsExample(): string {
  const doc = readFileSync(join(ROOT, "docs", "graph-language.md"), "utf8");
  const m = /```yaml title="route-on-status\.yaml"\n([\s\S]*?)```/.exec(doc);
  if (!m) throw new Error("docs/graph-language.md has no route-on-status.yaml example");
  return m[1]!;
}

async function runWithBuild(exit: number) {
  mkdirSync(join(dir.path, "scripts"), { recursive: true });
  writeFileSync(join(dir.path, "scripts", "build"), `#!/bin/sh\necho "build said ${exit}" >&2\nexit ${exit}\n`);
  chmodSync(join(dir.path, "scripts", "build"), 0o755);
  const graph = join(dir.path, "route-on-status.yaml");
  writeFileSync(graph, docsExample());
  const r = await vouch(["run", graph, "--json"], { home: join(dir.path, "home"), cwd: dir.path });
  const events = parseNdjson(r.stdout);
  const fin = (id: string) => events.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === id);
  return { code: r.code, fin, run: events.at(-1) as EventOf<"run.finished"> };
}

test("a failed build: the router runs, reads its status and chooses the failure end, which decides the run", async () => {
  const r = await runWithBuild(1);
  expect(r.fin("build")).toMatchObject({ status: "failed", cause: "nonzero_exit" });
  expect(r.fin("triage")).toMatchObject({ status: "passed" });
  expect(r.fin("triage")!.output).toEqual({ route: "default", to: ["broken"] });
  expect(r.fin("shipped")).toMatchObject({ status: "skipped", cause: "not_chosen" });
  expect(r.fin("broken")).toMatchObject({ status: "failed", cause: "end_failure" });
  expect(r.fin("broken")!.output).toEqual({ why: "exited with status 1: build said 1" });
  expect(r.run).toMatchObject({ status: "failed", exit_code: 1 });
  expect(r.code).toBe(1);
});

test("a passed build: the router chooses shipped, and the run passes", async () => {
  const r = await runWithBuild(0);
  expect(r.fin("triage")!.output).toEqual({ route: 0, to: ["shipped"] });
  expect(r.fin("broken")).toMatchObject({ status: "skipped", cause: "not_chosen" });
  expect(r.run).toMatchObject({ status: "passed", exit_code: 0 });
});
