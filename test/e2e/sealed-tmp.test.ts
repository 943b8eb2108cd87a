// A sealed process has a /tmp of its own (ADR 0073), through the real binary:
// a sealed sitting (a script node in a tree of its own) and a sealed check each
// write /tmp, read it back and use mktemp; nothing they wrote is in the host's
// /tmp afterwards, a file of the host's /tmp nobody named is not there for them,
// and the script the node runs from the host's /tmp (named on its command line)
// still is. Unsealed (--sandbox off) the same files land in the host's /tmp: the
// assertions can fail.
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { makeRepo } from "../workspace/git-repo.ts";
import { HAVE_BWRAP } from "../spawn/helpers.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

const tag = randomUUID().slice(0, 8);
const SITTING = `/tmp/vouch-e2e-own-tmp-sitting-${tag}`;
const CHECK = `/tmp/vouch-e2e-own-tmp-check-${tag}`;
/** A file of the host's /tmp that no command line or variable names. */
const SECRET = `/tmp/vouch-e2e-own-tmp-secret-${tag}`;

/** Writes /tmp, reads it back, makes a mktemp file; says whether the host's secret is there. */
const use = (path: string) =>
  `echo mine > ${path} && test "$(cat ${path})" = mine && f=$(mktemp) && echo y > "$f" && test -s "$f" && case "$f" in /tmp/*) ;; *) exit 7;; esac; if [ -e ${SECRET} ]; then echo SAW-SECRET; else echo no-secret; fi`;

let dir: TempDir;
let repo: string;
const made: string[] = [];
beforeAll(() => {
  if (!HAVE_BWRAP) return;
  ensureBinary();
  dir = tempDir("own-tmp");
  repo = makeRepo({ "README.md": "x\n" }, "vouch-own-tmp-");
  made.push(repo);
  writeFileSync(SECRET, "the host's\n");
  const script = join(dir.path, "sitting.sh");
  writeFileSync(script, `#!/bin/sh\n${use(SITTING)}\n`);
  chmodSync(script, 0o755);
  const graph = `version: 1
name: own-tmp
nodes:
  s:
    kind: script
    argv: ["${script}"]
    workspace: { mode: worktree }
    success: { checks: [{ name: tmp, run: ${JSON.stringify(use(CHECK))}, expect: { output_matches: "no-secret" } }] }
`;
  writeFileSync(join(dir.path, "g.yaml"), graph);
});
afterAll(() => {
  dir?.cleanup();
  for (const p of [SECRET, SITTING, CHECK, ...made]) rmSync(p, { recursive: true, force: true });
});

async function runIt(extra: string[]) {
  const r = await vouch(["run", join(dir.path, "g.yaml"), "--json", ...extra], {
    home: join(dir.path, `ledger${extra.join("")}`),
    cwd: repo,
  });
  const events = parseNdjson(r.stdout);
  const finished = events.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === "s");
  return { r, finished, check: events.find((e): e is EventOf<"check.finished"> => e.type === "check.finished") };
}

describe.skipIf(!HAVE_BWRAP)("a sealed process's own /tmp", () => {
  test("a sealed sitting and a sealed check write /tmp and read it back; the host's /tmp gets none of it and shows them none of its own", async () => {
    const { r, finished, check } = await runIt([]);
    expect(finished, r.stderr).toMatchObject({ status: "passed", sealed: true });
    expect(finished!.result_tail).toContain("no-secret");
    expect(check).toMatchObject({ passed: true });
    expect(check!.stdout_tail).toContain("no-secret");
    expect(existsSync(SITTING)).toBe(false);
    expect(existsSync(CHECK)).toBe(false);
  }, 120_000);

  test("unsealed, the same files land in the host's /tmp (the test above can fail)", async () => {
    const { finished } = await runIt(["--sandbox", "off"]);
    expect(finished!.sealed).toBe(false);
    expect(finished!.result_tail).toContain("SAW-SECRET");
    expect(existsSync(SITTING)).toBe(true);
    expect(existsSync(CHECK)).toBe(true);
  }, 120_000);
});
