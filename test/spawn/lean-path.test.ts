// The lean per-process path (issue 29 item 2, ADR 0075), bounded by counts, never by time:
// timers made per process, reads of vouch's environment per command, and file-system
// calls per command of the handover. Each bound failed on the code before it.
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import fc from "fast-check";
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandContext } from "../../src/engine/ports.ts";
import { createCommandRunner } from "../../src/spawn/command-runner.ts";
import { HandoverStore, KEEP_RELEASED } from "../../src/spawn/handover-files.ts";
import { runProcess } from "../../src/spawn/process.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { commandContext, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());
const tmpRoot = join(dir.path, "tmp");
mkdirSync(tmpRoot);
afterEach(() => vi.restoreAllMocks());

/** Counts the setTimeout calls made from src/spawn while `body` runs. */
async function spawnTimers(body: () => Promise<void>): Promise<number> {
  const real = globalThis.setTimeout;
  let count = 0;
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
    if (/src\/spawn\//.test(new Error().stack ?? "")) count++;
    return real(fn, ms, ...rest);
  }) as typeof setTimeout);
  try {
    await body();
  } finally {
    spy.mockRestore();
  }
  return count;
}

describe("timers per process", () => {
  test("a command whose pipes closed at its exit makes no settle timer: none without caps, one with a wall cap", async () => {
    const runs = 10;
    const bare = await spawnTimers(async () => {
      for (let i = 0; i < runs; i++) expect((await runProcess({ shell: "true" }, { cwd: dir.path, env: TEST_ENV })).exit).toBe(0);
    });
    // Before: one settle timer (DRAIN_MS) per process, though the pipes were already closed.
    expect(bare).toBe(0);
    const capped = await spawnTimers(async () => {
      for (let i = 0; i < runs; i++)
        expect((await runProcess({ shell: "echo hi; echo err >&2" }, { cwd: dir.path, env: TEST_ENV, wallMs: 60_000 })).exit).toBe(0);
    });
    expect(capped).toBe(runs);
  });

  test("a grandchild holding the pipes after the exit still gets the settle timer (and is killed with the group)", async () => {
    let r: Awaited<ReturnType<typeof runProcess>> | undefined;
    const timers = await spawnTimers(async () => {
      r = await runProcess({ shell: "sleep 30 & echo started" }, { cwd: dir.path, env: TEST_ENV });
    });
    expect(r?.stdoutTail).toBe("started\n");
    expect(timers).toBeGreaterThanOrEqual(1);
  });
});

describe("handover files per command", () => {
  // Security review of ADR 0075: a command that made a handed file writable (chmod, which changes
  // its ctime) and left a process holding a descriptor could write into whatever vouch later put
  // in that inode. A released file that changed is never rewritten in place: a new file, a new
  // inode. Test first: a changed file was recycled (its inode handed to the next state).
  test("a released file whose change time moved is not rewritten in place: the next state gets a new inode", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const released: string[] = [];
    for (let i = 0; i < KEEP_RELEASED; i++) {
      const h = store.acquire({ state: { n: i } });
      released.push(h.vars.VOUCH_STATE_FILE!);
      h.release();
    }
    const touched = new Set<bigint>();
    // Held open, as the leftover process would: the file system cannot give these inodes to a new file.
    const held: number[] = [];
    try {
      for (const path of released) {
        chmodSync(path, 0o600); // what a command does to get a writable descriptor
        held.push(openSync(path, "r+"));
        chmodSync(path, 0o400);
        touched.add(statSync(path, { bigint: true }).ino);
      }
      for (let i = 0; i < 4; i++) {
        const h = store.acquire({ state: { n: 100 + i } });
        expect(touched.has(statSync(h.vars.VOUCH_STATE_FILE!, { bigint: true }).ino)).toBe(false);
        expect(JSON.parse(readFileSync(h.vars.VOUCH_STATE_FILE!, "utf8"))).toMatchObject({ n: 100 + i });
        h.release();
      }
    } finally {
      for (const fd of held) closeSync(fd);
    }
  });

  test("a map at concurrency 8: a released state is rewritten where it is, so 200 branches use at most 16 + KEEP_RELEASED names and rename only files made new", () => {
    const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
    const running: { release(): void }[] = [];
    const paths = new Set<string>();
    for (let i = 0; i < 200; i++) {
      if (running.length === 8) running.shift()!.release();
      const h = store.acquire({ state: { inputs: { items: "x".repeat(4000) }, item: `item-${i}`, index: i }, item: `item-${i}` });
      paths.add(h.vars.VOUCH_STATE_FILE!);
      paths.add(h.vars.VOUCH_ITEM_FILE!);
      expect(JSON.parse(readFileSync(h.vars.VOUCH_ITEM_FILE!, "utf8"))).toBe(`item-${i}`);
      running.push(h);
    }
    for (const h of running) h.release();
    // Before: every content had a name of its own (its digest), so each recycled file was
    // renamed — 2 renames per branch, 401 names for 200 branches.
    expect(paths.size).toBeLessThanOrEqual(16 + KEEP_RELEASED);
    expect(store.renames).toBe(store.made);
    expect(store.made).toBeLessThanOrEqual(16 + KEEP_RELEASED);
    void store.close();
  });
});

describe("a hostile command cannot change what the next command reads", () => {
  const ctx = (over: Partial<CommandContext> = {}): CommandContext =>
    commandContext(dir.path, { state: { inputs: {}, nodes: { a: { verdict: "pass" } } }, ...over });
  const script = (run: string) => ({ run, timeoutMs: 10_000, keepStdoutBytes: 4096 });

  test("a same-size rewrite of the shared state with its mtime put back (touch -r) is noticed: the next command reads the engine's state", async () => {
    const runner = createCommandRunner({ parentEnv: TEST_ENV, tmpRoot });
    const c = ctx({ item: "it", inputs: [{ stem: "A", text: "aaaa" }] });
    const want = (await runner.runScript(script('cat "$VOUCH_STATE_FILE"'), c)).stdoutTail;
    // The hostile command: chmod is no obstacle to its user (nor is 0400 to root); it forges
    // each file with bytes of the same length and puts the modification time back.
    const forge = (v: string) =>
      `f="$${v}"; cp -p "$f" "$f.ref"; chmod u+w "$f"; n=$(wc -c < "$f"); head -c "$n" /dev/zero | tr '\\0' X > "$f"; touch -r "$f.ref" "$f"; chmod 400 "$f"; rm "$f.ref"`;
    const hostile = await runner.runScript(
      script(`${forge("VOUCH_STATE_FILE")}; ${forge("VOUCH_ITEM_FILE")}; ${forge("VOUCH_INPUT_A_FILE")}; cat "$VOUCH_STATE_FILE"`),
      c,
    );
    expect(hostile.exit).toBe(0);
    expect(hostile.stdoutTail).toMatch(/^X+$/);
    const after = await runner.runScript(
      script('cat "$VOUCH_STATE_FILE"; echo; cat "$VOUCH_ITEM_FILE"; echo; cat "$VOUCH_INPUT_A_FILE"'),
      c,
    );
    // Before: inode, size and mtime matched, so the forged bytes were handed on.
    expect(after.stdoutTail).toBe(`${want}\n"it"\naaaa`);
    await runner.close();
  });
});

describe("the child environment's base", () => {
  test("a runner walks vouch's environment once, not once per command, and every command still gets exactly the allowlist", async () => {
    let walks = 0;
    const parent = new Proxy({ PATH: TEST_ENV.PATH, HOME: "/home/x", SECRET_TOKEN: "s3cret", CLAUDECODE: "1" } as Record<string, string>, {
      ownKeys(target) {
        walks++;
        return Reflect.ownKeys(target);
      },
    });
    const runner = createCommandRunner({ parentEnv: parent, tmpRoot });
    const c = {
      runId: "run-1",
      node: "n",
      attempt: 1,
      cwd: dir.path,
      passEnv: [],
      vars: { VOUCH_RUN_ID: "run-1" },
      inputs: [],
      state: { inputs: {}, nodes: {} },
      signal: new AbortController().signal,
    } satisfies CommandContext;
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const o = await runner.runScript(
        { run: "env | grep -v '^PWD=\\|^SHLVL=\\|^_=' | sort", timeoutMs: 10_000, keepStdoutBytes: 4096 },
        c,
      );
      seen.add(o.stdoutTail);
    }
    await runner.close();
    // Before: buildChildEnv walked the parent's entries for every command (10 walks).
    expect(walks).toBe(1);
    expect(seen.size).toBe(1);
    const names = [...seen][0]!
      .split("\n")
      .filter(Boolean)
      .map((l) => l.slice(0, l.indexOf("=")));
    expect(names).toEqual(["HOME", "PATH", "VOUCH_RUN_ID", "VOUCH_STATE_FILE"]);
  });
});

describe("property: whatever commands do to their files, each command reads what it was handed", () => {
  test("acquires, releases and forgeries in any order (same-size rewrites with the times put back, removals, links)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant("acquire" as const), state: fc.nat(3), item: fc.option(fc.nat(2), { nil: undefined }) }),
            fc.record({ op: fc.constant("release" as const), which: fc.nat(40) }),
            fc.record({ op: fc.constant("forge" as const), which: fc.nat(40), how: fc.constantFrom("same-size", "remove", "link") }),
          ),
          { minLength: 10, maxLength: 60 },
        ),
        (ops) => {
          const store = new HandoverStore(new ProcessSupervisor(), tmpRoot);
          const held: { vars: Record<string, string>; release(): void; want: Record<string, string> }[] = [];
          const inputs = { items: "a\nb\n" };
          const forged = new Set<string>();
          try {
            for (const o of ops) {
              if (o.op === "acquire") {
                const state = { inputs, nodes: { n: o.state }, pad: "p".repeat(o.state * 37) };
                const h = store.acquire(o.item === undefined ? { state } : { state, item: `it-${o.item}` });
                const want: Record<string, string> = {};
                const { inputs: _, ...rest } = state;
                const stateText = readFileSync(h.vars.VOUCH_STATE_FILE!, "utf8");
                if (o.item === undefined) expect(stateText).toBe(JSON.stringify(state));
                else {
                  const parsed = JSON.parse(stateText) as Record<string, unknown>;
                  expect(JSON.parse(readFileSync(parsed.inputs_file as string, "utf8"))).toEqual(inputs);
                  expect({ ...parsed, inputs_file: undefined }).toEqual({ ...rest, inputs_file: undefined });
                  want.VOUCH_ITEM_FILE = JSON.stringify(`it-${o.item}`);
                  expect(readFileSync(h.vars.VOUCH_ITEM_FILE!, "utf8")).toBe(want.VOUCH_ITEM_FILE);
                }
                want.VOUCH_STATE_FILE = stateText;
                for (const path of Object.values(h.vars)) forged.delete(path);
                held.push({ ...h, want });
              } else if (held.length > 0) {
                const h = held[o.which % held.length]!;
                if (o.op === "release") {
                  h.release();
                  held.splice(held.indexOf(h), 1);
                } else {
                  forge(h.vars.VOUCH_STATE_FILE!, o.how);
                  forged.add(h.vars.VOUCH_STATE_FILE!);
                }
              }
              // A command still running reads what it was handed, unless its own file was forged:
              // a released file is rewritten for later commands, never a held one.
              for (const h of held)
                for (const [name, text] of Object.entries(h.want))
                  if (!forged.has(h.vars[name]!)) expect(readFileSync(h.vars[name]!, "utf8")).toBe(text);
            }
          } finally {
            for (const h of held) h.release();
            void store.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** What a hostile command can do to a handover file of its own (the folder is its user's). */
function forge(path: string, how: "same-size" | "remove" | "link"): void {
  try {
    if (how === "remove") return rmSync(path, { force: true });
    if (how === "link") {
      rmSync(path, { force: true });
      return symlinkSync(join(dir.path, "elsewhere.txt"), path);
    }
    const st = statSync(path, { bigint: true });
    chmodSync(path, 0o600);
    writeFileSync(path, "X".repeat(Number(st.size)));
    chmodSync(path, 0o400);
    // The modification time put back to the nanosecond (utimes in JS rounds it): `touch -d @s.ns`.
    const ns = st.mtimeNs;
    const at = `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, "0")}`;
    expect(Bun.spawnSync(["touch", "-m", "-d", at, path]).exitCode).toBe(0);
    expect(statSync(path, { bigint: true }).mtimeNs).toBe(ns);
  } catch (e) {
    // Already forged into something else (a link, a removed file): nothing more to do.
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}
