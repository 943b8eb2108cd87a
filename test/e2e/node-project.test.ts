// A real Node project whose tests run through a dev-dependency test runner in a
// git-ignored node_modules (ADR 0043), through dist/vouch: the checks' trees link
// the checkout's node_modules read-only, so `npm test` finds its runner there.
// The same verdicts come out of the checkout itself (no worktree), a worktree
// with the sandbox off, and a sealed worktree: an honest fix passes, no fix
// fails, a fix that also rewrites the package.json test script still fails.
// The runner is a tiny package built here and installed offline from a tarball.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { commitFolder, git } from "../workspace/git-repo.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
let project: string;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("node-project");
  const runner = join(dir.path, "tiny-runner");
  mkdirSync(runner);
  writeFileSync(
    join(runner, "package.json"),
    JSON.stringify({ name: "tiny-runner", version: "1.0.0", main: "index.js", bin: { "tiny-test": "bin.js" } }),
  );
  writeFileSync(
    join(runner, "index.js"),
    "const tests = [];\nexports.test = (name, fn) => tests.push({ name, fn });\nexports.tests = tests;\n",
  );
  writeFileSync(
    join(runner, "bin.js"),
    `#!/usr/bin/env node
const { readdirSync } = require("node:fs");
const { join, resolve } = require("node:path");
const { tests } = require("./index.js");
for (const f of readdirSync("test").filter((f) => f.endsWith(".test.js"))) require(resolve("test", f));
let failed = 0;
for (const t of tests) {
  try { t.fn(); console.log("ok", t.name); } catch (e) { failed++; console.log("not ok", t.name, e.message); }
}
process.exit(failed === 0 && tests.length > 0 ? 0 : 1);
`,
  );
  chmodSync(join(runner, "bin.js"), 0o755);
  const packed = Bun.spawnSync(["npm", "pack", "--silent", "--pack-destination", dir.path], { cwd: runner, stderr: "pipe" });
  expect(packed.exitCode, packed.stderr.toString()).toBe(0);
  const template = join(dir.path, "template");
  mkdirSync(join(template, "src"), { recursive: true });
  mkdirSync(join(template, "test"));
  writeFileSync(
    join(template, "package.json"),
    JSON.stringify({
      name: "sum",
      version: "1.0.0",
      private: true,
      scripts: { test: "tiny-test" },
      devDependencies: { "tiny-runner": `file:${join(dir.path, "tiny-runner-1.0.0.tgz")}` },
    }),
  );
  writeFileSync(join(template, ".gitignore"), "node_modules/\n");
  writeFileSync(join(template, "src", "sum.js"), "exports.sum = (a, b) => a - b; // the bug\n");
  writeFileSync(
    join(template, "test", "sum.test.js"),
    'const { test } = require("tiny-runner");\nconst { sum } = require("../src/sum.js");\ntest("adds", () => { if (sum(2, 3) !== 5) throw new Error(`sum(2, 3) is ${sum(2, 3)}`); });\n',
  );
  const installed = Bun.spawnSync(["npm", "install", "--offline", "--no-audit", "--no-fund", "--silent"], {
    cwd: template,
    stderr: "pipe",
  });
  expect(installed.exitCode, installed.stderr.toString()).toBe(0);
  project = template;
}, 180_000);
afterAll(() => dir?.cleanup());

const AGENT = `#!/bin/sh
p=$(cat)
case "$p" in
  *fix*) echo 'exports.sum = (a, b) => a + b;' > src/sum.js ;;
esac
case "$p" in
  *cheat*) printf '{ "name": "sum", "scripts": { "test": "true" } }\\n' > package.json ;;
esac
echo done
`;

let n = 0;
/** A fresh committed copy of the project (its node_modules installed, ignored), and a run on it. */
async function run(
  prompt: string,
  mode: "shared" | "off" | "auto",
  check = "{ name: unit, run: npm test }",
): Promise<{ status: string; cause: string | null; tree: (string | undefined)[] }> {
  const repo = join(dir.path, `repo-${++n}`);
  Bun.spawnSync(["cp", "-a", project, repo]);
  commitFolder(repo);
  expect(git(repo, "status", "--porcelain")).toBe(""); // node_modules is ignored
  const agent = join(dir.path, `agent-${n}.sh`);
  writeFileSync(agent, AGENT);
  chmodSync(agent, 0o755);
  const ws = mode === "shared" ? "" : `\n    workspace: { mode: worktree, protect: ["test/**"] }\n    sandbox: ${mode}`;
  const graph = join(dir.path, `graph-${n}.yaml`);
  writeFileSync(
    graph,
    `version: 1\nname: node-project\nnodes:\n  fix:\n    kind: agent\n    harness: command\n    prompt: ${JSON.stringify(prompt)}${ws}\n    success: { checks: [${check}] }\n`,
  );
  const r = await vouch(["run", graph, "--json"], { home: join(dir.path, `home-${n}`), cwd: repo, env: { VOUCH_COMMAND: agent } });
  const events = parseNdjson(r.stdout);
  const f = events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished").at(-1)!;
  const checks = events.filter((e): e is EventOf<"check.finished"> => e.type === "check.finished");
  if (mode === "auto") expect(f.sealed, r.stderr).toBe(true);
  return { status: f.status, cause: f.cause, tree: checks.map((c) => c.tree) };
}

describe("npm test through a dev-dependency runner in the checkout's ignored node_modules", () => {
  test.each([
    ["fix", "passed", null],
    ["nothing", "failed", "check_failed"],
  ] as const)(
    "%s: the same verdict in the checkout, in a worktree unsealed, and sealed",
    async (prompt, status, cause) => {
      const shared = await run(prompt, "shared");
      const off = await run(prompt, "off");
      const sealed = await run(prompt, "auto");
      expect([shared.status, shared.cause]).toEqual([status, cause]);
      expect([off.status, off.cause]).toEqual([status, cause]);
      expect([sealed.status, sealed.cause]).toEqual([status, cause]);
      expect([shared.tree, off.tree, sealed.tree]).toEqual([[undefined], ["commit"], ["commit"]]);
    },
    120_000,
  );

  test.each([
    ["off", ""],
    ["auto", " && ! touch node_modules/.written 2>/dev/null"],
  ] as const)(
    "sandbox %s: the tree's node_modules is a link to the checkout's, whose runner it runs (read-only when sealed)",
    async (mode, readOnly) => {
      const linked = `{ name: linked, run: "test -L node_modules && test -x node_modules/.bin/tiny-test${readOnly}" }`;
      expect((await run("fix", mode, linked)).status).toBe("passed");
    },
    60_000,
  );

  test("a fix that also rewrites the test script: in the checkout it passes on its own word; in a worktree, sealed or not, npm test runs the base's script", async () => {
    expect((await run("fix cheat", "shared")).status).toBe("passed");
    expect((await run("cheat", "shared")).status).toBe("passed"); // the live folder runs the agent's script: the old hole
    expect(await run("cheat", "off")).toMatchObject({ status: "failed", cause: "check_failed" });
    expect(await run("cheat", "auto")).toMatchObject({ status: "failed", cause: "check_failed" });
  }, 120_000);
});
