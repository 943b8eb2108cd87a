// `kind: merge` rules that need git, through the binary (ADR 0021): before
// anything starts, a merge node outside a git repository or with a base that
// names no commit is refused at file:line:col, exit 2, and nothing is recorded.
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { fingerprint, makeRepo } from "../workspace/git-repo.ts";
import { vouch } from "../shipped/run-shipped.ts";

beforeAll(() => {
  ensureBinary();
}, 60_000);

const graph = (dir: string, base: string) => {
  const file = join(dir, "g.yaml");
  writeFileSync(
    file,
    `version: 1\nname: x\nnodes:\n  a: { kind: agent, prompt: a, harness: command, workspace: { mode: worktree } }\n  j: { kind: merge, needs: [a], from: [a]${base} }\n`,
  );
  return file;
};

describe("merge refusals before start", () => {
  test("a base that names no commit: exit 2 at the base, no run recorded, the checkout untouched", () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const file = graph(repo, ", base: no-such-ref");
    const before = fingerprint(repo);
    const r = vouch(["run", file, "--json"], { cwd: repo, env: { VOUCH_COMMAND: '["true"]' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/g\.yaml:5:\d+: merge base "no-such-ref" names no commit in /);
    expect(r.stdout).toBe("");
    expect(vouch(["runs", "--json"], { home: r.home }).stdout.trim()).toBe("[]");
    expect(fingerprint(repo)).toEqual(before);
  });

  test("a cwd outside any git repository: exit 2 naming the merge node", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "vouch-nogit-")));
    const r = vouch(["run", graph(dir, ""), "--json"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/g\.yaml:5:\d+: a merge node merges git branches, and .* is not in a git repository/);
  });
});
