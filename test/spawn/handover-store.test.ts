// The handover folder is shared by a runner's commands (docs/profiling.md): data handed
// before is not written again, a file a command changed is written afresh before the next
// command gets it, and the files kept are bounded. Real processes, a real folder.
import { afterAll, describe, expect, test } from "vitest";
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandContext } from "../../src/engine/ports.ts";
import { createCommandRunner } from "../../src/spawn/command-runner.ts";
import { HandoverStore, KEEP_RELEASED } from "../../src/spawn/handover-files.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { commandContext, tempDir } from "./helpers.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());
const tmpRoot = join(dir.path, "tmp");
mkdirSync(tmpRoot);
const PARENT = { PATH: "/usr/local/bin:/usr/bin:/bin" };

const ctx = (over: Partial<CommandContext> = {}): CommandContext => commandContext(dir.path, over);
const script = (run: string) => ({ run, timeoutMs: 10_000, keepStdoutBytes: 4096 });

describe("one handover folder per runner", () => {
  test("ten commands with the same state, item and inputs see one file each: same inode, written once", async () => {
    const runner = createCommandRunner({ parentEnv: PARENT, tmpRoot });
    const inputs = [{ stem: "A", text: "a".repeat(100_000) }];
    const c = ctx({ item: { i: 1 }, inputs });
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const o = await runner.runScript(script('stat -c %i "$VOUCH_STATE_FILE" "$VOUCH_ITEM_FILE" "$VOUCH_INPUT_A_FILE" | tr "\\n" " "'), {
        ...c,
        state: { inputs: {}, nodes: {} },
      });
      seen.add(o.stdoutTail.trim());
    }
    expect(seen.size).toBe(1);
    expect([...seen][0]!.split(" ")).toHaveLength(3);
    await runner.close();
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  test("an input whose name is longer than a file name may be (255 bytes) still reaches the command: its file is named within the limit", async () => {
    const runner = createCommandRunner({ parentEnv: PARENT, tmpRoot });
    const long = "X".repeat(400);
    const inputs = [
      { stem: long, text: "long one" },
      { stem: `${long}Y`, text: "its neighbour" },
    ];
    const o = await runner.runScript(script(`cat "$VOUCH_INPUT_${long}_FILE"; echo; cat "$VOUCH_INPUT_${long}Y_FILE"`), ctx({ inputs }));
    expect(o.exit, o.stdoutTail).toBe(0);
    expect(o.stdoutTail).toBe("long one\nits neighbour");
    await runner.close();
  });

  test("a store counts its writes: a new state is one write, the same one none", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const inputs = [{ stem: "X", text: "x" }];
    store.acquire({ state: { a: 1 }, inputs }).release();
    expect(store.writes).toBe(2);
    for (let i = 0; i < 20; i++) store.acquire({ state: { a: 1 }, inputs }).release();
    expect(store.writes).toBe(2);
    store.acquire({ state: { a: 2 }, inputs }).release();
    expect(store.writes).toBe(3);
    void store.close();
  });

  test("a command that overwrites its state file (root ignores 0400) does not change what the next one reads", async () => {
    const runner = createCommandRunner({ parentEnv: PARENT, tmpRoot });
    const state = { inputs: {}, nodes: { up: { status: "passed" } } };
    await runner.runScript(script('chmod 600 "$VOUCH_STATE_FILE"; printf forged > "$VOUCH_STATE_FILE"'), ctx({ state }));
    const o = await runner.runScript(script('cat "$VOUCH_STATE_FILE"'), ctx({ state }));
    expect(o.stdoutTail).toBe(JSON.stringify(state));
    await runner.close();
  });

  test("the same length and time of change but another file (deleted and made again) is noticed", async () => {
    const runner = createCommandRunner({ parentEnv: PARENT, tmpRoot });
    const state = { v: "aaaa" };
    await runner.runScript(script('f="$VOUCH_STATE_FILE"; rm -f "$f"; printf \'{"v":"bbbb"}\' > "$f"'), ctx({ state }));
    const o = await runner.runScript(script('cat "$VOUCH_STATE_FILE"'), ctx({ state }));
    expect(o.stdoutTail).toBe('{"v":"aaaa"}');
    await runner.close();
  });

  test("a long run keeps at most KEEP_RELEASED stale states on disk", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    let folder = "";
    for (let i = 0; i < KEEP_RELEASED * 4; i++) {
      const h = store.acquire({ state: { i } });
      folder = h.vars.VOUCH_STATE_FILE!.slice(0, h.vars.VOUCH_STATE_FILE!.lastIndexOf("/"));
      h.release();
    }
    expect(readdirSync(folder).length).toBeLessThanOrEqual(KEEP_RELEASED);
    // Held files are never removed under a running command.
    const held = Array.from({ length: KEEP_RELEASED * 2 }, (_, i) => store.acquire({ state: { held: i } }));
    expect(held.every((h) => readdirSync(folder).includes(h.vars.VOUCH_STATE_FILE!.slice(folder.length + 1)))).toBe(true);
    for (const h of held) h.release();
    expect(readdirSync(folder).length).toBe(KEEP_RELEASED);
    // And reused: new states rewrite released files, they do not add to them.
    const made = store.made;
    for (let i = 0; i < KEEP_RELEASED * 4; i++) store.acquire({ state: { again: i } }).release();
    expect(store.made).toBe(made);
    expect(readdirSync(folder).length).toBeLessThanOrEqual(KEEP_RELEASED);
    void store.close();
  });

  test("a long map reuses the released files' inodes: 64 states one after another make at most KEEP_RELEASED + 1 files", () => {
    // A file made and one unlinked per command was most of the handover's cost (ADR 0032).
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const inodes = new Set<number>();
    for (let i = 0; i < 64; i++) {
      const h = store.acquire({ state: { i, pad: "p".repeat(i % 7 === 0 ? 5000 : i) } });
      const f = h.vars.VOUCH_STATE_FILE!;
      inodes.add(statSync(f).ino);
      // Every command reads exactly what it was handed, read-only, whatever the earlier file held.
      expect(readFileSync(f, "utf8")).toBe(JSON.stringify({ i, pad: "p".repeat(i % 7 === 0 ? 5000 : i) }));
      expect(statSync(f).mode & 0o777).toBe(0o400);
      h.release();
    }
    expect(store.writes).toBe(64);
    expect(store.made).toBeLessThanOrEqual(KEEP_RELEASED + 1);
    expect(inodes.size).toBeLessThanOrEqual(KEEP_RELEASED + 1);
    void store.close();
  });

  test("as a map at concurrency 8 hands them (a state and an item per branch): 200 branches make at most 16 + KEEP_RELEASED files", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const running: { release(): void }[] = [];
    for (let i = 0; i < 200; i++) {
      if (running.length === 8) running.shift()!.release();
      running.push(store.acquire({ state: { inputs: { items: "x".repeat(4000) }, item: i, index: i }, item: i }));
    }
    for (const h of running) h.release();
    // A state and an item per branch, and the run's inputs once (a branch's state names them, ADR 0054).
    expect(store.writes).toBe(401);
    expect(store.made).toBeLessThanOrEqual(16 + KEEP_RELEASED);
    void store.close();
  });

  test("a released file a command replaced by a link is not written through: the target stays as it was", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const outside = join(dir.path, "outside.txt");
    writeFileSync(outside, "keep me", { mode: 0o644 });
    const first = store.acquire({ state: { first: true } });
    const f = first.vars.VOUCH_STATE_FILE!;
    first.release();
    rmSync(f, { force: true });
    symlinkSync(outside, f);
    const hardTarget = join(dir.path, "hard.txt");
    const second = store.acquire({ state: { second: true } });
    linkSync(second.vars.VOUCH_STATE_FILE!, hardTarget);
    second.release();
    // Enough new states to recycle both released files.
    for (let i = 0; i < KEEP_RELEASED * 2; i++) store.acquire({ state: { fill: i } }).release();
    expect(readFileSync(outside, "utf8")).toBe("keep me");
    expect(statSync(outside).mode & 0o777).toBe(0o644);
    expect(readFileSync(hardTarget, "utf8")).toBe(JSON.stringify({ second: true }));
    void store.close();
  });

  test("hostile content (a name like __proto__, escape sequences, deep JSON) is data, never a path", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const h = store.acquire({ state: { __proto__: { x: 1 }, "../../etc": "\u001b[2J" }, item: "../../../etc/passwd" });
    const folder = h.vars.VOUCH_STATE_FILE!.slice(0, h.vars.VOUCH_STATE_FILE!.lastIndexOf("/"));
    expect(h.vars.VOUCH_ITEM_FILE!.startsWith(folder + "/item-")).toBe(true);
    expect(h.vars.VOUCH_STATE_FILE!.startsWith(folder + "/state-")).toBe(true);
    h.release();
    void store.close();
  });
});

describe("the file written aside (review of ADR 0032)", () => {
  test("a link a command planted at the next aside names is not written through: the target stays as it was, the command gets its state", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const outside = join(dir.path, "outside-aside.txt");
    writeFileSync(outside, "keep me", { mode: 0o644 });
    const first = store.acquire({ state: { first: true } });
    const folder = first.vars.VOUCH_STATE_FILE!.slice(0, first.vars.VOUCH_STATE_FILE!.lastIndexOf("/"));
    // The folder is the command's user's: it can put anything at the names vouch writes aside.
    for (let i = 0; i < 64; i++) symlinkSync(outside, join(folder, `.w${i}`));
    const second = store.acquire({ state: { second: true } });
    expect(readFileSync(outside, "utf8")).toBe("keep me");
    const f = second.vars.VOUCH_STATE_FILE!;
    expect(lstatSync(f).isFile()).toBe(true);
    expect(readFileSync(f, "utf8")).toBe(JSON.stringify({ second: true }));
    first.release();
    second.release();
    void store.close();
  });
});
