// The coordinator's check before branches with worktrees go to workers (ADR 0029), with
// real git: which remote, its URL as a worker can use it, and what is refused (exit 2).
import { afterEach, expect, test } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, type TempDir } from "../e2e/helpers.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import { hasPassword, prepareRemoteWorkspace } from "../../src/workspace/remote-workspace.ts";
import { UsageError } from "../../src/engine/errors.ts";
import { git } from "./fleet.ts";

let dir: TempDir;
afterEach(() => dir?.cleanup());

const graph = graphSchema.parse({
  version: 1,
  name: "g",
  nodes: { each: { kind: "map", over: "inputs.x", branch: { w: { kind: "script", run: "true", workspace: { mode: "worktree" } } } } },
});

/** A repository in dir/repo (a subfolder app/) with two bare remotes, pushed to both. */
function repo(): string {
  dir = tempDir("rw-check");
  const r = join(dir.path, "repo");
  mkdirSync(join(r, "app"), { recursive: true });
  git(dir.path, "init", "--quiet", "--bare", "origin.git");
  git(dir.path, "init", "--quiet", "--bare", "fork.git");
  git(r, "init", "--quiet");
  writeFileSync(join(r, "app", "a"), "a\n");
  git(r, "add", ".");
  git(r, "commit", "--quiet", "-m", "a");
  git(r, "remote", "add", "origin", "../origin.git"); // relative, as a user may write it
  git(r, "remote", "add", "fork", join(dir.path, "fork.git"));
  git(r, "push", "--quiet", "origin", "HEAD:main");
  git(r, "push", "--quiet", "fork", "HEAD:main");
  return r;
}

test("origin by default; its relative path made absolute; the run folder's place in the repository travels", async () => {
  const r = repo();
  const ws = await prepareRemoteWorkspace(graph, join(r, "app"), "redis://h:1");
  expect(ws).toEqual({
    url: join(dir.path, "origin.git"),
    remote: "origin",
    bases: [{ ref: "HEAD", commit: git(r, "rev-parse", "HEAD") }],
    prefix: "app",
  });
  // No branch with a worktree: nothing is needed, and no git runs.
  expect(
    await prepareRemoteWorkspace(
      graphSchema.parse({ version: 1, name: "g", nodes: { s: { kind: "script", run: "true" } } }),
      "/nonexistent",
      "redis://h:1",
    ),
  ).toBeUndefined();
});

test("the current branch's upstream remote is the one used, as git push would", async () => {
  const r = repo();
  git(r, "branch", "--set-upstream-to=fork/main");
  expect((await prepareRemoteWorkspace(graph, r, "redis://h:1"))!.remote).toBe("fork");
});

test("a remote URL holding a password is refused: it would go through Redis", async () => {
  const r = repo();
  git(r, "remote", "set-url", "origin", "https://me:s3cret@example.com/app.git");
  const e = await prepareRemoteWorkspace(graph, r, "redis://h:1").catch((x: unknown) => x);
  expect(e).toBeInstanceOf(UsageError);
  expect((e as Error).message).toContain('the URL of remote "origin" holds a password or token');
  expect((e as Error).message).not.toContain("s3cret");
  expect(hasPassword("git@example.com:a.git")).toBe(false);
  expect(hasPassword("ssh://git@example.com/a.git")).toBe(false);
  expect(hasPassword("https://example.com/a@b.git")).toBe(false);
  expect(hasPassword("ssh://git:pw@example.com/a.git")).toBe(true);
});

// A GitHub token is accepted in the user's place (https://TOKEN@github.com/...), and a
// url.<base>.insteadOf in ~/.gitconfig (a common CI set-up) puts one there behind the user's
// back: `git remote get-url` prints the rewritten URL, which would go to Redis as is.
test("a token in the user's place of an https URL is refused too, also when insteadOf put it there", async () => {
  const r = repo();
  git(r, "remote", "set-url", "origin", "https://example.com/app.git");
  git(r, "config", "url.https://ghp_T0KEN@example.com/.insteadOf", "https://example.com/");
  const e = await prepareRemoteWorkspace(graph, r, "redis://h:1").catch((x: unknown) => x);
  expect(e).toBeInstanceOf(UsageError);
  expect((e as Error).message).toContain('the URL of remote "origin" holds a password or token');
  expect((e as Error).message).not.toContain("ghp_T0KEN");
  for (const u of ["https://ghp_abc@github.com/me/a.git", "HTTP://me@example.com/a.git", "https://x-access-token:t@github.com/a.git"])
    expect(hasPassword(u)).toBe(true);
});

test("a folder outside any repository is refused, naming it", async () => {
  dir = tempDir("rw-none");
  const e = await prepareRemoteWorkspace(graph, dir.path, "redis://h:1").catch((x: unknown) => x);
  expect(e).toBeInstanceOf(UsageError);
  expect((e as Error).message).toContain(`${dir.path} is not in one`);
});

test("the remote is fetched once for all the bases the branches name, and each base resolves", async () => {
  const r = repo();
  git(r, "tag", "v1");
  git(r, "push", "--quiet", "origin", "v1:refs/heads/release");
  const log = join(dir.path, "upload-pack.log");
  const pack = join(dir.path, "upload-pack.sh");
  writeFileSync(pack, `#!/bin/sh\necho fetch >> '${log}'\nexec git-upload-pack "$@"\n`, { mode: 0o755 });
  git(r, "config", "remote.origin.uploadpack", pack);
  const two = graphSchema.parse({
    version: 1,
    name: "g",
    nodes: {
      each: {
        kind: "map",
        over: "inputs.x",
        branch: {
          a: { kind: "script", run: "true", workspace: { mode: "worktree" } },
          b: { kind: "script", run: "true", workspace: { mode: "worktree", base: "v1" } },
        },
      },
    },
  });
  const ws = await prepareRemoteWorkspace(two, r, "redis://h:1");
  const head = git(r, "rev-parse", "HEAD");
  expect(ws!.bases).toEqual([
    { ref: "HEAD", commit: head },
    { ref: "v1", commit: head },
  ]);
  expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["fetch"]);
});
