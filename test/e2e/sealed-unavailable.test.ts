// Where sealing does not work (ADR 0040), through the real binary: here, a PATH
// without bubblewrap. `auto` runs the sittings unsealed and says so once for the
// whole run, naming the nodes and why; `required` refuses before anything starts
// (exit 2, no run recorded); `--sandbox off` runs unsealed without a word.
import { afterAll, beforeAll, expect, test } from "vitest";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, parseNdjson, runsOf, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
let graph: string;
let env: Record<string, string>;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("unsealable");
  const agent = join(dir.path, "agent.sh");
  writeFileSync(agent, "#!/bin/sh\nread p\necho did it\n");
  chmodSync(agent, 0o755);
  const empty = join(dir.path, "bin");
  mkdirSync(empty);
  graph = join(dir.path, "g.yaml");
  writeFileSync(
    graph,
    "version: 1\nname: u\nnodes:\n  a: { kind: agent, harness: command, prompt: x }\n  b: { kind: agent, harness: command, prompt: y }\n",
  );
  // No bubblewrap on PATH (nothing at all: the agent runs by absolute path).
  env = { PATH: empty, VOUCH_COMMAND: agent };
}, 120_000);
afterAll(() => dir?.cleanup());

test("auto: unsealed, one warning for the whole run naming both nodes and why; each node records it", async () => {
  const r = await vouch(["run", graph, "--json"], { home: join(dir.path, "auto"), cwd: dir.path, env });
  expect(r.code, r.stderr).toBe(0);
  const warnings = r.stderr.split("\n").filter((l) => l.includes("warning"));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("the sandbox is not available here: bubblewrap (bwrap) is not installed");
  expect(warnings[0]).toContain("2 nodes run unsealed (a, b)");
  const finished = parseNdjson(r.stdout).filter((e) => e.type === "node.finished");
  const rows = finished.map((e) => (e.type === "node.finished" ? [e.node, e.sealed, e.unsealed_reason?.slice(0, 33)] : []));
  expect(rows.sort()).toEqual([
    ["a", false, "the sandbox is not available here"],
    ["b", false, "the sandbox is not available here"],
  ]);
});

test("required: refused before anything starts, exit 2, naming the node and what to do; no run recorded", async () => {
  const home = join(dir.path, "required");
  const r = await vouch(["run", graph, "--sandbox", "required"], { home, cwd: dir.path, env });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("node a: sandbox: required, but this machine cannot seal: bubblewrap (bwrap) is not installed");
  expect(r.stderr).toContain("install bubblewrap");
  expect(await runsOf(home)).toEqual([]);
});

test("--sandbox off: unsealed without a warning; a bad value is a usage error", async () => {
  const r = await vouch(["run", graph, "--json", "--sandbox", "off"], { home: join(dir.path, "off"), cwd: dir.path, env });
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain("warning");
  const bad = await vouch(["run", graph, "--sandbox", "maybe"], { home: join(dir.path, "bad"), cwd: dir.path, env });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--sandbox "maybe" is not a sandbox setting (settings: auto, required, off)');
});
