// Recorded sittings replay their file edits into the sitting's folder (ADR 0021):
// the sidecar format, old fixtures without one, and hostile recorded paths
// refused before any file is touched.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentRunner } from "../../src/spawn/harness/agent-runner.ts";
import { editsPathFor, pathProblem } from "../../src/spawn/harness/replay/edits.ts";
import type { AgentAssignment } from "../../src/engine/ports.ts";

const result = (text: string) =>
  JSON.stringify({ type: "result", subtype: "success", is_error: false, num_turns: 1, total_cost_usd: 0.001, result: text });
const lstatOrNull = (p: string) => {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
};
const hooks = () => ({ signal: new AbortController().signal, onProgress: () => {} });

function setup(edits: unknown, node = "impl") {
  const fixtures = mkdtempSync(join(tmpdir(), "vouch-replay-edits-"));
  const cwd = mkdtempSync(join(tmpdir(), "vouch-replay-cwd-"));
  writeFileSync(join(fixtures, `${node}.jsonl`), result("done") + "\n");
  if (edits !== undefined) writeFileSync(join(fixtures, `${node}.edits.json`), typeof edits === "string" ? edits : JSON.stringify(edits));
  const runner = createAgentRunner({ parentEnv: {}, replayDir: fixtures });
  const assignment: AgentAssignment = {
    runId: "r",
    node,
    attempt: 1,
    harness: "replay",
    prompt: "p",
    cwd,
    passEnv: [],
    caps: {},
    output: { format: "text" },
  };
  return { cwd, fixtures, run: () => runner.run(assignment, hooks()) };
}

describe("replayed edits", () => {
  test("a sidecar's writes, executables and deletes land in the sitting's cwd", async () => {
    const s = setup({
      edits: [
        { path: "src/new/deep.js", content: "export const x = 1;\n" },
        { path: "bin/run", content: "#!/bin/sh\necho ok\n", executable: true },
        { path: "gone.txt", delete: true },
      ],
    });
    writeFileSync(join(s.cwd, "gone.txt"), "old");
    const sitting = await s.run();
    expect(sitting.stopReason).toBe("complete");
    expect(readFileSync(join(s.cwd, "src/new/deep.js"), "utf8")).toBe("export const x = 1;\n");
    expect(statSync(join(s.cwd, "bin/run")).mode & 0o111).not.toBe(0);
    expect(existsSync(join(s.cwd, "gone.txt"))).toBe(false);
  });

  test("a fixture without a sidecar edits nothing (old recordings play as before)", async () => {
    const s = setup(undefined);
    const sitting = await s.run();
    expect(sitting).toMatchObject({ stopReason: "complete", resultText: "done" });
    expect(Bun.spawnSync(["ls", "-A", s.cwd]).stdout.toString()).toBe("");
  });

  test.each([
    ["/etc/passwd", "is absolute"],
    ["../outside.txt", "climbs out"],
    ["a/../../outside.txt", "climbs out"],
    [".git/hooks/pre-commit", "inside .git"],
    ["sub/.GIT/config", "inside .git"],
    ["", "is empty"],
    ["a\0b", "NUL"],
  ])("the recorded path %j is refused as a bad fixture, and no earlier edit written", async (path, why) => {
    const s = setup({
      edits: [
        { path: "first.txt", content: "1" },
        { path, content: "x" },
      ],
    });
    const sitting = await s.run();
    expect(sitting.stopReason).toBe("crashed");
    expect(sitting.error).toMatch(/^bad replay fixture impl\.jsonl: replay edit /);
    expect(sitting.error).toContain(why);
    expect(existsSync(join(s.cwd, "first.txt"))).toBe(false);
  });

  test("a path through a symlink that leaves the folder is refused; one that stays inside is followed", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vouch-replay-outside-"));
    const s = setup({ edits: [{ path: "link/escaped.txt", content: "x" }] });
    symlinkSync(outside, join(s.cwd, "link"));
    const sitting = await s.run();
    expect(sitting.stopReason).toBe("crashed");
    expect(sitting.error).toContain("leaves the folder through a symlink");
    expect(existsSync(join(outside, "escaped.txt"))).toBe(false);

    const t = setup({ edits: [{ path: "alias/kept.txt", content: "y" }] });
    mkdirSync(join(t.cwd, "real"));
    symlinkSync(join(t.cwd, "real"), join(t.cwd, "alias"));
    expect((await t.run()).stopReason).toBe("complete");
    expect(readFileSync(join(t.cwd, "real/kept.txt"), "utf8")).toBe("y");
  });

  test("a path through a symlink into the folder's .git is refused like a .git path", async () => {
    const s = setup({ edits: [{ path: "meta/hooks/pre-commit", content: "#!/bin/sh\nexit 0\n", executable: true }] });
    mkdirSync(join(s.cwd, ".git", "hooks"), { recursive: true });
    symlinkSync(join(s.cwd, ".git"), join(s.cwd, "meta"));
    const sitting = await s.run();
    expect(sitting.stopReason).toBe("crashed");
    expect(sitting.error).toContain("inside .git");
    expect(existsSync(join(s.cwd, ".git", "hooks", "pre-commit"))).toBe(false);
  });

  test("a symlinked file pointing out of the folder is not written through", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vouch-replay-outside-"));
    writeFileSync(join(outside, "victim"), "safe");
    const s = setup({ edits: [{ path: "victim", content: "overwritten" }] });
    symlinkSync(join(outside, "victim"), join(s.cwd, "victim"));
    expect((await s.run()).stopReason).toBe("crashed");
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("safe");
  });

  // Issue 27 item 16 (test first: the delete followed the link and removed its target).
  test("a recorded delete of a symlink removes the link, never what it points at (inside or outside the folder)", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vouch-replay-outside-"));
    writeFileSync(join(outside, "victim"), "safe");
    const s = setup({
      edits: [
        { path: "inner-link", delete: true },
        { path: "outer-link", delete: true },
      ],
    });
    writeFileSync(join(s.cwd, "kept.txt"), "the user's");
    symlinkSync(join(s.cwd, "kept.txt"), join(s.cwd, "inner-link"));
    symlinkSync(join(outside, "victim"), join(s.cwd, "outer-link"));
    expect((await s.run()).stopReason).toBe("complete");
    expect(readFileSync(join(s.cwd, "kept.txt"), "utf8")).toBe("the user's");
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("safe");
    expect(lstatOrNull(join(s.cwd, "inner-link"))).toBeNull();
    expect(lstatOrNull(join(s.cwd, "outer-link"))).toBeNull();
  });

  test("a delete through a symlinked folder that leaves the folder is still refused", async () => {
    const outside = mkdtempSync(join(tmpdir(), "vouch-replay-outside-"));
    writeFileSync(join(outside, "victim"), "safe");
    const s = setup({ edits: [{ path: "out/victim", delete: true }] });
    symlinkSync(outside, join(s.cwd, "out"));
    const sitting = await s.run();
    expect(sitting.stopReason).toBe("crashed");
    expect(sitting.error).toContain("leaves the folder through a symlink");
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("safe");
  });

  test.each([
    ["not json", "cannot read replay edits"],
    [JSON.stringify({ edits: [{ path: "a" }] }), "edits.0"],
    [JSON.stringify({ edits: [{ path: "a", content: "x", extra: 1 }] }), "edits.0"],
    ['{"__proto__": {"edits": []}}', "edits"],
  ])("a malformed sidecar %j is a bad fixture, with what is wrong", async (text, why) => {
    const sitting = await setup(text).run();
    expect(sitting.stopReason).toBe("crashed");
    expect(sitting.error).toMatch(/^bad replay fixture impl\.jsonl: /);
    expect(sitting.error).toContain(why);
  });

  test("a sitting stopped by a cap applies no edits", async () => {
    const s = setup({ edits: [{ path: "a.txt", content: "x" }] });
    const fixtures = s.fixtures;
    const runner = createAgentRunner({ parentEnv: {}, replayDir: fixtures, replayDelayMs: 50 });
    const sitting = await runner.run(
      {
        runId: "r",
        node: "impl",
        attempt: 1,
        harness: "replay",
        prompt: "p",
        cwd: s.cwd,
        passEnv: [],
        caps: { wallMs: 1 },
        output: { format: "text" },
      },
      hooks(),
    );
    expect(sitting.stopReason).toBe("wall");
    expect(existsSync(join(s.cwd, "a.txt"))).toBe(false);
  });

  test("the sidecar is named after the fixture it belongs to", () => {
    expect(editsPathFor("/f/impl.0.a2.jsonl")).toBe("/f/impl.0.a2.edits.json");
    expect(editsPathFor("/f/impl.json")).toBe("/f/impl.edits.json");
  });

  test("property: a path with a .. segment or a leading / is always refused", () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.array(segment, { maxLength: 4 }), (before, after) => {
        expect(pathProblem([...before, "..", ...after].join("/"))).not.toBeNull();
        expect(pathProblem("/" + [...before, "x"].join("/"))).not.toBeNull();
      }),
    );
  });
});
