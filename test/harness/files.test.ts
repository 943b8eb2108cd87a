// Replay fixture lookup, transcript lookup and PATH search: file system only.
import { describe, expect, test } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFixture, fixtureCandidates } from "../../src/spawn/harness/replay/fixtures.ts";
import { findTranscript } from "../../src/spawn/harness/transcript.ts";
import { findOnPath } from "../../src/spawn/harness/find-binary.ts";

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe("replay fixture lookup", () => {
  test("order: N.I.aA, N.I, N.aA, N (each .jsonl then .json); outside a map the branch forms are skipped", () => {
    expect(fixtureCandidates("verify", 2, 3)).toEqual([
      "verify.3.a2.jsonl",
      "verify.3.a2.json",
      "verify.3.jsonl",
      "verify.3.json",
      "verify.a2.jsonl",
      "verify.a2.json",
      "verify.jsonl",
      "verify.json",
    ]);
    expect(fixtureCandidates("parse", 1)).toEqual(["parse.a1.jsonl", "parse.a1.json", "parse.jsonl", "parse.json"]);
  });

  test("on a feedback loop the round forms come first: N.rR.aA, N.rR, then N.aA, N", () => {
    expect(fixtureCandidates("implement", 1, undefined, 2).filter((n) => n.endsWith(".jsonl"))).toEqual([
      "implement.r2.a1.jsonl",
      "implement.r2.jsonl",
      "implement.a1.jsonl",
      "implement.jsonl",
    ]);
    const dir = temp("vouch-replay-");
    writeFileSync(join(dir, "implement.jsonl"), "{}");
    writeFileSync(join(dir, "implement.r2.jsonl"), "{}");
    expect(findFixture(dir, "implement", 1, undefined, 1)).toEqual({ found: join(dir, "implement.jsonl") });
    expect(findFixture(dir, "implement", 1, undefined, 2)).toEqual({ found: join(dir, "implement.r2.jsonl") });
  });

  test("the most specific existing file wins", () => {
    const dir = temp("vouch-replay-");
    writeFileSync(join(dir, "verify.json"), "{}");
    writeFileSync(join(dir, "verify.1.jsonl"), "{}");
    expect(findFixture(dir, "verify", 1, 1)).toEqual({ found: join(dir, "verify.1.jsonl") });
    expect(findFixture(dir, "verify", 1, 0)).toEqual({ found: join(dir, "verify.json") });
    const missing = findFixture(dir, "other", 1);
    expect("missing" in missing && missing.lookedFor).toEqual(["other.a1.jsonl", "other.a1.json", "other.jsonl", "other.json"]);
  });

  test("a node id that could leave the folder is refused", () => {
    expect("missing" in findFixture(temp("vouch-replay-"), "../etc/passwd", 1)).toBe(true);
  });
});

describe("findTranscript", () => {
  test("finds <config>/projects/*/<session>.jsonl, CLAUDE_CONFIG_DIR first, HOME/.claude otherwise", () => {
    const config = temp("vouch-claude-");
    mkdirSync(join(config, "projects", "-tmp-project"), { recursive: true });
    const file = join(config, "projects", "-tmp-project", "abc-123.jsonl");
    writeFileSync(file, "{}\n");
    expect(findTranscript("abc-123", { CLAUDE_CONFIG_DIR: config })).toBe(file);
    const home = temp("vouch-home-");
    mkdirSync(join(home, ".claude", "projects", "x"), { recursive: true });
    writeFileSync(join(home, ".claude", "projects", "x", "abc-123.jsonl"), "");
    expect(findTranscript("abc-123", { HOME: home })).toBe(join(home, ".claude", "projects", "x", "abc-123.jsonl"));
    expect(findTranscript("missing", { CLAUDE_CONFIG_DIR: config })).toBeNull();
  });

  test("a session id with path characters is never looked up", () => {
    expect(findTranscript("../../etc/passwd", { CLAUDE_CONFIG_DIR: "/" })).toBeNull();
  });
});

describe("findOnPath", () => {
  test("the first executable regular file on PATH; not a directory, not a non-executable file", () => {
    const a = temp("vouch-path-a-");
    const b = temp("vouch-path-b-");
    writeFileSync(join(a, "tool"), "not executable");
    mkdirSync(join(a, "dir-tool"));
    writeFileSync(join(b, "tool"), "#!/bin/sh\n");
    chmodSync(join(b, "tool"), 0o755);
    expect(findOnPath("tool", `${a}:${b}`)).toBe(join(b, "tool"));
    expect(findOnPath("dir-tool", a)).toBeNull();
    expect(findOnPath("tool", "relative/dir")).toBeNull();
    expect(findOnPath("tool", undefined)).toBeNull();
  });
});
