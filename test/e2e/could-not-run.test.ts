// Work that could not run is no verdict (issue 12 item 4): a command that is not
// found or not executable — the shell's 127/126, or a spawn ENOENT/EACCES — is
// `error` (exit 3) for a script exactly as for a check, never `failed` (exit 1).
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  dir = tempDir("not-run");
  writeFileSync(join(dir.path, "not-exec.sh"), "#!/bin/sh\necho hi\n");
  chmodSync(join(dir.path, "not-exec.sh"), 0o644);
});
afterEach(() => dir.cleanup());

async function runNode(node: string, env: Record<string, string> = {}) {
  const graph = join(dir.path, "g.yaml");
  writeFileSync(graph, `version: 1\nname: not-run\nnodes:\n  work:\n${node}`);
  const r = await vouch(["run", graph, "--json"], { home: join(dir.path, "home"), cwd: dir.path, env });
  const events = parseNdjson(r.stdout);
  const finished = events.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === "work")!;
  const run = events.at(-1) as EventOf<"run.finished">;
  return { code: r.code, finished, run };
}

const CASES: [string, string, RegExp][] = [
  [
    "a shell command that is not found (127)",
    `    kind: script\n    run: no-such-command-vouch-test --flag\n`,
    /127 \(command not found\)/,
  ],
  ["a shell command that is not executable (126)", `    kind: script\n    run: ./not-exec.sh\n`, /126 \(command not executable\)/],
  [
    "a not-found shell command under exit_zero: false",
    `    kind: script\n    run: no-such-command-vouch-test\n    success: { exit_zero: false }\n`,
    /127/,
  ],
  ["an argv program that does not exist (ENOENT)", `    kind: script\n    argv: [no-such-command-vouch-test]\n`, /could not start/],
  ["an argv program that is not executable (EACCES)", `    kind: script\n    argv: [./not-exec.sh]\n`, /could not start/],
  [
    "a check whose command is not found",
    `    kind: script\n    run: "true"\n    success: { checks: [{ name: c, run: no-such-command-vouch-test }] }\n`,
    /127/,
  ],
];

test.each(CASES)(
  "%s: the node is error harness_error and the run exits 3",
  async (_name, node, detail) => {
    const { code, finished, run } = await runNode(node);
    expect({ status: finished.status, cause: finished.cause }).toEqual({ status: "error", cause: "harness_error" });
    expect(finished.error).toMatch(detail);
    expect(run.status).toBe("error");
    expect(code).toBe(3);
  },
  30_000,
);

test("a script that runs and exits 127 on purpose under argv (no shell) is its own verdict: failed", async () => {
  const { code, finished } = await runNode(`    kind: script\n    argv: [sh, -c, "exit 127"]\n`);
  // Only the shell vouch itself starts can say "not found"; a program's own 127 is its answer.
  expect({ status: finished.status, cause: finished.cause, code }).toEqual({ status: "failed", cause: "nonzero_exit", code: 1 });
}, 30_000);

test.each([
  ["does not exist", "/no/such/agent-program"],
  ["is not executable", "./not-exec.sh"],
])(
  "an agent program that %s: error (exit 3), never failed",
  async (_name, program) => {
    const { code, finished } = await runNode(`    kind: agent\n    harness: command\n    prompt: hi\n`, { VOUCH_COMMAND: program });
    expect({ status: finished.status, code }).toEqual({ status: "error", code: 3 });
    expect(finished.error).toMatch(/could not be started/);
  },
  30_000,
);
