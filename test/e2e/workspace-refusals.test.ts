// Refused before start (exit 2, file:line:col), through dist/vouch: worktree
// outside a git repository, an unknown base, a base starting with "-", `from`
// naming a node without a worktree or not upstream, a protect glob that means
// nothing. Nothing runs and nothing is written to the repository.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fingerprint } from "../workspace/git-repo.ts";
import { makeRepo } from "../workspace/git-repo.ts";
import { ensureBinary, STACK_LINE, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
let repo: string;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("ws-refusals");
  repo = makeRepo({ "a.txt": "a\n" }, "vouch-ws-refuse-");
}, 180_000);
afterAll(() => dir?.cleanup());

function graph(name: string, nodes: string, defaults = ""): string {
  const file = join(dir.path, `${name}.yaml`);
  writeFileSync(file, `version: 1\nname: ${name}\n${defaults}nodes:\n${nodes}`);
  return file;
}

const agent = (id: string, extra: string) => `  ${id}:\n    kind: agent\n    harness: command\n    prompt: go\n${extra}`;

async function refused(file: string, cwd: string): Promise<string> {
  const before = fingerprint(repo);
  const r = await vouch(["run", file, "--plain"], { home: join(dir.path, "home"), cwd, env: { VOUCH_COMMAND: "/bin/true" } });
  expect(r.code).toBe(2);
  expect(r.stderr).not.toMatch(STACK_LINE);
  expect(r.stdout).toBe("");
  expect(fingerprint(repo)).toEqual(before);
  expect(existsSync(join(repo, ".vouch"))).toBe(false);
  const v = await vouch(["validate", file], { home: join(dir.path, "home"), cwd });
  expect(v.code).toBe(2);
  return r.stderr;
}

describe("refused at load", () => {
  test("mode worktree outside a git repository names the folder, at the mode's line", async () => {
    const outside = join(dir.path, "not-a-repo");
    mkdirSync(outside);
    const f = graph("outside", agent("impl", "    workspace: { mode: worktree }\n"));
    expect(await refused(f, outside)).toMatch(
      new RegExp(`outside\\.yaml:8:\\d+: workspace mode worktree needs a git repository, and ${outside} is not in one`),
    );
  });
  test("defaults.workspace outside a repository points at the defaults", async () => {
    const outside = join(dir.path, "not-a-repo-2");
    mkdirSync(outside);
    const f = graph("outside-defaults", agent("impl", ""), "defaults:\n  workspace: { mode: worktree }\n");
    expect(await refused(f, outside)).toMatch(/outside-defaults\.yaml:4:\d+: workspace mode worktree needs a git repository/);
  });
  test("a cwd that does not exist is named as such", async () => {
    const f = graph("no-dir", agent("impl", "    cwd: no/such/dir\n    workspace: { mode: worktree }\n"));
    expect(await refused(f, repo)).toMatch(
      /no-dir\.yaml:9:\d+: workspace mode worktree: the node's folder .*\/no\/such\/dir does not exist/,
    );
  });
  test("an unknown base", async () => {
    const f = graph("unknown-base", agent("impl", "    workspace: { mode: worktree, base: no-such-branch }\n"));
    expect(await refused(f, repo)).toMatch(/unknown-base\.yaml:8:\d+: workspace base "no-such-branch" names no commit in /);
  });
  test("a base starting with - is never handed to git", async () => {
    const f = graph("dash-base", agent("impl", "    workspace: { mode: worktree, base: --orphan }\n"));
    expect(await refused(f, repo)).toMatch(/dash-base\.yaml:8:\d+: base "--orphan" starts with "-": git would read it as an option/);
  });
  test("from naming a node without a worktree, and one that is not upstream", async () => {
    const f = graph(
      "from",
      agent("shared", "") +
        agent("later", "    needs: [shared]\n    workspace: { from: shared }\n") +
        agent("wt", "    workspace: { mode: worktree }\n") +
        agent("side", "    workspace: { from: wt }\n"),
    );
    const err = await refused(f, repo);
    expect(err).toMatch(/from\.yaml:\d+:\d+: workspace\.from names "shared", which has no worktree/);
    expect(err).toMatch(/from\.yaml:\d+:\d+: workspace\.from names "wt", which is not upstream of "side"/);
    expect(err).toContain('hint: add "wt" to needs');
  });
  test("protect globs that mean nothing", async () => {
    const f = graph("globs", agent("impl", '    workspace: { mode: worktree, protect: ["/abs/**", "test/[ab", "a/../b", "!x"] }\n'));
    const err = await refused(f, repo);
    expect(err).toContain('protect glob "/abs/**" is not valid: a glob is relative to the repository root');
    expect(err).toContain('protect glob "test/[ab" is not valid: the character class starting at position 6 is never closed');
    expect(err).toContain('protect glob "a/../b" is not valid');
    expect(err).toContain('protect glob "!x" is not valid: a glob cannot negate');
  });
  test("a node id that would make a bad branch name or path is refused by the id rules", async () => {
    const f = graph("bad-id", agent("-x", "    workspace: { mode: worktree }\n") + agent("a..b", "    workspace: { mode: worktree }\n"));
    const err = await refused(f, repo);
    expect(err.match(/a node id starts with a letter or _/g)?.length).toBe(2);
  });
});
