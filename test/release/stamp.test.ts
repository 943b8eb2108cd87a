// What a release stamps into `vouch --version` (scripts/release/stamp.ts), on
// real git repositories made for the test: the commit, "-dirty" when a tracked
// file differs from it, and a refusal outside git or for a version npm refuses.
import { afterAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../e2e/helpers.ts";
import { checkVersion, commitOf } from "../../scripts/release/stamp.ts";
import { ReleaseError } from "../../scripts/release/release-error.ts";

const dir = tempDir("stamp");
afterAll(() => dir.cleanup());
const git = (...args: string[]) =>
  Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir.path, stdout: "pipe" })
    .stdout.toString()
    .trim();

describe("the commit a release stamps", () => {
  test("outside a git checkout the release refuses, saying why", () => {
    expect(() => commitOf(dir.path)).toThrow(ReleaseError);
    expect(() => commitOf(dir.path)).toThrow("is not a git checkout with a commit");
  });

  test("HEAD's 12 hex digits; -dirty while a tracked file differs; an untracked file changes nothing", () => {
    git("init", "-q");
    writeFileSync(join(dir.path, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-qm", "one");
    const head = git("rev-parse", "--short=12", "HEAD");
    expect(head).toMatch(/^[0-9a-f]{12}$/);
    expect(commitOf(dir.path)).toBe(head);
    writeFileSync(join(dir.path, "untracked.txt"), "x\n");
    expect(commitOf(dir.path)).toBe(head);
    writeFileSync(join(dir.path, "a.txt"), "two\n");
    expect(commitOf(dir.path)).toBe(`${head}-dirty`);
  });
});

describe("the version a release carries", () => {
  test("x.y.z and x.y.z-pre pass; anything npm or a tag would not carry is refused", () => {
    for (const v of ["0.1.0", "10.20.30", "1.0.0-rc.1"]) expect(checkVersion(v)).toBe(v);
    for (const v of ["", "1.0", "v1.0.0", "1.0.0 ", "1.0.0;rm", "-1.0.0", "1.0.0-", "1.0.0\n"])
      expect(() => checkVersion(v)).toThrow(ReleaseError);
  });
});
