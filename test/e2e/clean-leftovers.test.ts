// `vouch clean` removes the empty folders a run's worktrees leave under
// .vouch/worktrees/<run>; a symlink left there (a model can make one in its
// worktree) is not followed: an empty folder it points to stays.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { main } from "../../src/cli.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { git, makeRepo } from "../workspace/git-repo.ts";

const outside = mkdtempSync(join(tmpdir(), "vouch-clean-outside-"));
const home = mkdtempSync(join(tmpdir(), "vouch-clean-home-"));
const repo = makeRepo({ "a.txt": "a\n" });
afterAll(() => {
  for (const d of [outside, home, repo]) rmSync(d, { recursive: true, force: true });
});

test("clean RUN removes the run's empty folders and does not follow a symlink out of them", async () => {
  const run = "20260101-000000-000001";
  git(repo, "branch", `vouch/${run}/work`);
  const left = join(repo, ".vouch", "worktrees", run, "work");
  mkdirSync(join(left, "empty"), { recursive: true });
  mkdirSync(join(outside, "keep"));
  symlinkSync(outside, join(left, "out"));
  let out = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: () => {},
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env: { PATH: process.env.PATH, VOUCH_HOME: home },
    cwd: repo,
    streams: process,
  };
  expect(await main(["clean", run], io)).toBe(0);
  expect(out).toContain("of 1 run");
  expect(existsSync(join(left, "empty"))).toBe(false);
  expect(existsSync(join(outside, "keep"))).toBe(true);
});
