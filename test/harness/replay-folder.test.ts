// The replay harness keeps what it read of its fixture folder between sittings
// (issue 20: 10,000 branches on one fixture): file-system calls per sitting are
// bounded, and a folder or fixture that changes is still seen at the next sitting.
import { afterEach, describe, expect, test, vi } from "vitest";

const calls = vi.hoisted(() => ({ n: new Map<string, number>() }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const counted: Record<string, unknown> = { ...fs };
  for (const name of [
    "existsSync",
    "statSync",
    "lstatSync",
    "fstatSync",
    "accessSync",
    "openSync",
    "readSync",
    "readFileSync",
    "closeSync",
    "readdirSync",
  ] as const) {
    const f = fs[name] as (...a: unknown[]) => unknown;
    counted[name] = (...a: unknown[]) => {
      calls.n.set(name, (calls.n.get(name) ?? 0) + 1);
      return f(...a);
    };
  }
  return { ...counted, default: counted };
});

import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentRunner } from "../../src/spawn/harness/agent-runner.ts";
import type { AgentAssignment } from "../../src/engine/ports.ts";

const result = (text: string) =>
  JSON.stringify({ type: "result", subtype: "success", is_error: false, num_turns: 1, total_cost_usd: 0, result: text }) + "\n";
const sitting = (cwd: string, index: number, node = "work"): AgentAssignment => ({
  runId: "r",
  node,
  attempt: 1,
  harness: "replay",
  prompt: "p",
  cwd,
  passEnv: [],
  caps: {},
  output: { format: "text" },
  branch: { map: "m", index },
});
const hooks = () => ({ signal: new AbortController().signal, onProgress: () => {} });
/** Sets a path's times `secondsAgo` in the past: what a checked-out fixture folder looks like. */
const age = (path: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, t, t);
};
const total = () => [...calls.n.values()].reduce((a, b) => a + b, 0);

const temps: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
};
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("replay: what is kept of the fixture folder", () => {
  test("a sitting on a settled fixture costs 3 file-system calls (the folder, the cwd, the fixture): no lookup of 7 names, no read", async () => {
    const dir = temp("vouch-replay-kept-");
    const cwd = temp("vouch-replay-cwd-");
    writeFileSync(join(dir, "work.jsonl"), result("checked"));
    age(join(dir, "work.jsonl"), 60);
    age(dir, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    expect((await runner.run(sitting(cwd, 0), hooks())).resultText).toBe("checked"); // the first reads it
    calls.n.clear();
    const n = 50;
    for (let i = 1; i <= n; i++) expect((await runner.run(sitting(cwd, i), hooks())).resultText).toBe("checked");
    // Before: 9 existsSync, 3 statSync, open, fstat, 2 reads and a close per sitting (17).
    expect(Object.fromEntries(calls.n)).toEqual({ statSync: 3 * n });
  });

  test("a fixture modified within the last 2 s is read again at every sitting", async () => {
    const dir = temp("vouch-replay-fresh-");
    const cwd = temp("vouch-replay-cwd-");
    writeFileSync(join(dir, "work.jsonl"), result("one"));
    age(dir, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    calls.n.clear();
    for (let i = 0; i < 5; i++) await runner.run(sitting(cwd, i), hooks());
    expect(calls.n.get("openSync")).toBe(5);
  });

  test("a settled fixture rewritten between sittings (same size, other time) is played as rewritten", async () => {
    const dir = temp("vouch-replay-rewrite-");
    const cwd = temp("vouch-replay-cwd-");
    const file = join(dir, "work.jsonl");
    writeFileSync(file, result("aaaa"));
    age(file, 60);
    age(dir, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    expect((await runner.run(sitting(cwd, 0), hooks())).resultText).toBe("aaaa");
    expect((await runner.run(sitting(cwd, 1), hooks())).resultText).toBe("aaaa");
    writeFileSync(file, result("bbbb"));
    age(file, 30);
    expect((await runner.run(sitting(cwd, 2), hooks())).resultText).toBe("bbbb");
  });

  test("a settled fixture rewritten in place with its old modification time kept (cp -p, tar, rsync -t) is played as rewritten", async () => {
    // Review of ADR 0033: such a write does not move the modification time; only the change
    // time (which no user can set) tells it apart, so it must be part of what is compared.
    const dir = temp("vouch-replay-keptmtime-");
    const cwd = temp("vouch-replay-cwd-");
    const file = join(dir, "work.jsonl");
    const old = new Date(Date.now() - 60_000);
    writeFileSync(file, result("aaaa"));
    utimesSync(file, old, old);
    age(dir, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    expect((await runner.run(sitting(cwd, 0), hooks())).resultText).toBe("aaaa");
    expect((await runner.run(sitting(cwd, 1), hooks())).resultText).toBe("aaaa");
    writeFileSync(file, result("bbbb"));
    utimesSync(file, old, old);
    expect((await runner.run(sitting(cwd, 2), hooks())).resultText).toBe("bbbb");
  });

  test("a branch's own fixture added to a settled folder between sittings wins over the node's", async () => {
    const dir = temp("vouch-replay-added-");
    const cwd = temp("vouch-replay-cwd-");
    writeFileSync(join(dir, "work.jsonl"), result("node"));
    age(join(dir, "work.jsonl"), 60);
    age(dir, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    expect((await runner.run(sitting(cwd, 3), hooks())).resultText).toBe("node");
    writeFileSync(join(dir, "work.3.jsonl"), result("branch 3"));
    age(join(dir, "work.3.jsonl"), 30);
    age(dir, 30);
    expect((await runner.run(sitting(cwd, 3), hooks())).resultText).toBe("branch 3");
    rmSync(join(dir, "work.3.jsonl"));
    age(dir, 20);
    expect((await runner.run(sitting(cwd, 3), hooks())).resultText).toBe("node");
  });

  test("a fixture that is a symbolic link plays its current target; a folder named like a fixture is passed over", async () => {
    const dir = temp("vouch-replay-link-");
    const elsewhere = temp("vouch-replay-target-");
    const cwd = temp("vouch-replay-cwd-");
    writeFileSync(join(elsewhere, "a.jsonl"), result("target a"));
    writeFileSync(join(elsewhere, "b.jsonl"), result("target b"));
    mkdirSync(join(dir, "work.1.jsonl"));
    writeFileSync(join(dir, "work.json"), result("node"));
    symlinkSync(join(elsewhere, "a.jsonl"), join(dir, "work.jsonl"));
    for (const p of [join(elsewhere, "a.jsonl"), join(elsewhere, "b.jsonl"), join(dir, "work.json"), dir]) age(p, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    expect((await runner.run(sitting(cwd, 1), hooks())).resultText).toBe("target a");
    // The link now points elsewhere; the folder's listing has not changed (same names).
    renameSync(join(elsewhere, "b.jsonl"), join(elsewhere, "a.jsonl"));
    expect((await runner.run(sitting(cwd, 1), hooks())).resultText).toBe("target b");
    rmSync(join(elsewhere, "a.jsonl"));
    expect((await runner.run(sitting(cwd, 1), hooks())).resultText).toBe("node");
  });

  test("a settled fixture's edits sidecar is applied at every sitting, each in its own folder", async () => {
    const dir = temp("vouch-replay-edits-");
    writeFileSync(join(dir, "work.jsonl"), result("edited"));
    writeFileSync(join(dir, "work.edits.json"), JSON.stringify({ edits: [{ path: "out.txt", content: "hello\n" }] }));
    for (const p of [join(dir, "work.jsonl"), join(dir, "work.edits.json"), dir]) age(p, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    for (let i = 0; i < 3; i++) {
      const cwd = temp("vouch-replay-cwd-");
      expect((await runner.run(sitting(cwd, i), hooks())).stopReason).toBe("complete");
      expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("hello\n");
    }
  });

  test("a fixture folder removed between sittings makes the next one unavailable, as before", async () => {
    const dir = temp("vouch-replay-gone-");
    const cwd = temp("vouch-replay-cwd-");
    writeFileSync(join(dir, "work.jsonl"), result("here"));
    age(join(dir, "work.jsonl"), 60);
    age(dir, 60);
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    expect((await runner.run(sitting(cwd, 0), hooks())).resultText).toBe("here");
    rmSync(dir, { recursive: true });
    const s = await runner.run(sitting(cwd, 1), hooks());
    expect(s.stopReason).toBe("unavailable");
    expect(s.error).toContain("is not a folder");
    expect(total()).toBeGreaterThan(0);
  });
});
