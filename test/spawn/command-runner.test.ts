// The CommandRunner port with real processes: checks in the node's directory,
// every failure fully reported, data handed over as files (never on the command
// line), scripts with state on stdin, and clear typed errors for bad specs.
import { afterAll, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckSpec, CommandContext } from "../../src/engine/ports.ts";
import { CommandSpecError, SpawnError, VouchError } from "../../src/engine/errors.ts";
import { createCommandRunner } from "../../src/spawn/command-runner.ts";
import { eventually, stub, tempDir } from "./helpers.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());
const project = join(dir.path, "project");
const tmpRoot = join(dir.path, "tmp");
mkdirSync(project);
mkdirSync(tmpRoot);
writeFileSync(join(project, "main.go"), "package main // unformatted\n");
writeFileSync(join(project, "util.go"), "package main\n");

const PARENT = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/home/x", VOUCH_CANARY_SECRET: "canary", GITHUB_TOKEN: "ghp-1" };
const runner = createCommandRunner({ parentEnv: PARENT, tmpRoot, graceMs: 500 });

function ctx(over: Partial<CommandContext> = {}): CommandContext {
  return {
    runId: "run-1",
    node: "build",
    attempt: 1,
    cwd: project,
    passEnv: [],
    vars: { VOUCH_RUN_ID: "run-1", VOUCH_NODE: "build" },
    inputs: [],
    state: { inputs: { n: 1 }, nodes: {} },
    signal: new AbortController().signal,
    ...over,
  };
}
const check = (over: Partial<CheckSpec> & Pick<CheckSpec, "name" | "run">): CheckSpec => ({
  expect: "exit_zero",
  timeoutMs: 120_000,
  ...over,
});

describe("checks", () => {
  test("four checks, three failing: every failure is reported with exit, signal, timed-out flag, duration and tails", async () => {
    const checks = [
      check({ name: "fmt", run: stub("gofmt-l.sh"), expect: "empty_output" }),
      check({ name: "tests", run: `${stub("fail-with-output.sh")} 1` }),
      check({ name: "slow", run: "echo started; sleep 30", timeoutMs: 300 }),
      check({ name: "version", run: "echo ok 3 tests", expect: { output_matches: "^ok \\d+ tests$" } }),
    ];
    const outcomes = [];
    for (const c of checks) outcomes.push(await runner.runCheck(c, ctx()));
    const [fmt, tests, slow, version] = outcomes;

    expect(fmt).toMatchObject({
      name: "fmt",
      passed: false,
      expect: "empty_output",
      reason: "printed 1 line, expected no output: main.go",
      exit: 0,
      signal: null,
      timedOut: false,
      stdoutTail: "main.go\n",
      truncated: false,
    });
    expect(tests).toMatchObject({
      name: "tests",
      passed: false,
      reason: "exit 1, expected 0",
      exit: 1,
      signal: null,
      timedOut: false,
      stdoutTail: "out: something went wrong\n",
      stderrTail: "err: details on stderr\n",
    });
    expect(slow).toMatchObject({
      name: "slow",
      passed: false,
      reason: "timed out after 300ms",
      exit: null,
      signal: "SIGTERM",
      timedOut: true,
      stdoutTail: "started\n",
    });
    expect(slow!.durationMs).toBeGreaterThanOrEqual(290);
    expect(slow!.durationMs).toBeLessThan(10_000);
    expect(version).toMatchObject({ name: "version", passed: true, expect: "output_matches /^ok \\d+ tests$/", exit: 0 });
    expect(version!.reason).toBeUndefined();
    for (const o of outcomes) expect(typeof o.durationMs).toBe("number");
  });

  test("{ exit: N } judges the exact status", async () => {
    const o = await runner.runCheck(check({ name: "three", run: "exit 3", expect: { exit: 3 } }), ctx());
    expect(o.passed).toBe(true);
    const p = await runner.runCheck(check({ name: "three", run: "exit 0", expect: { exit: 3 } }), ctx());
    expect(p).toMatchObject({ passed: false, reason: "exit 0, expected 3" });
  });

  test("a check gets the state and item as files and the engine's vars; nothing else of the parent unless named", async () => {
    const o = await runner.runCheck(
      check({
        name: "data",
        run: 'cat "$VOUCH_STATE_FILE"; echo; cat "$VOUCH_ITEM_FILE"; echo; echo "$VOUCH_RUN_ID/$VOUCH_NODE/[$VOUCH_CANARY_SECRET]/[$GITHUB_TOKEN]"',
      }),
      ctx({ item: { id: "F-1" }, passEnv: ["GITHUB_TOKEN"] }),
    );
    // A branch's state names the run's inputs by a file (ADR 0054).
    expect(o.stdoutTail).toMatch(
      /^\{"inputs_file":"\/[^"]+\/run-inputs-\d+\.json","nodes":\{\}\}\n\{"id":"F-1"\}\nrun-1\/build\/\[\]\/\[ghp-1\]\n$/,
    );
  });

  test("a check gets the node's own output in VOUCH_OUTPUT_FILE, and no such file without one", async () => {
    const withOutput = await runner.runCheck(
      check({ name: "claims", run: 'cat "$VOUCH_OUTPUT_FILE"' }),
      ctx({ output: { verdict: "VERIFIED", evidence: [{ at: "a.js:1" }] } }),
    );
    expect(withOutput.stdoutTail).toBe('{"verdict":"VERIFIED","evidence":[{"at":"a.js:1"}]}');
    const without = await runner.runCheck(check({ name: "none", run: 'echo "[${VOUCH_OUTPUT_FILE-unset}]"' }), ctx());
    expect(without.stdoutTail).toBe("[unset]\n");
  });

  test("the handover directory is private (0700), its files read-only (0400), and close() removes it", async () => {
    const o = await runner.runCheck(
      check({
        name: "mode",
        run: 'stat -c %a "$(dirname "$VOUCH_STATE_FILE")"; stat -c %a "$VOUCH_STATE_FILE"; dirname "$VOUCH_STATE_FILE"',
      }),
      ctx(),
    );
    const [dirMode, fileMode, handoverDir] = o.stdoutTail.trim().split("\n");
    expect(dirMode).toBe("700");
    expect(fileMode).toBe("400");
    expect(handoverDir!.startsWith(tmpRoot)).toBe(true);
    await runner.close();
    expect(existsSync(handoverDir!)).toBe(false);
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  test("checks run in the node's directory", async () => {
    const o = await runner.runCheck(check({ name: "pwd", run: "pwd" }), ctx());
    expect(o.stdoutTail).toBe(`${project}\n`);
  });

  test("a missing command inside the shell: not passed, marked notRun (no evidence), with the shell's message", async () => {
    const o = await runner.runCheck(check({ name: "lint", run: "no-such-linter-xyz --all" }), ctx());
    expect(o).toMatchObject({ passed: false, exit: 127, reason: "exit 127 (command not found), expected 0", notRun: true });
    // A check that ran and failed is evidence; one that expected 127 passes and is no "not run".
    expect((await runner.runCheck(check({ name: "lint", run: "exit 1" }), ctx())).notRun).toBeUndefined();
    expect(await runner.runCheck(check({ name: "probe", run: "no-such-linter-xyz", expect: { exit: 127 } }), ctx())).toMatchObject({
      passed: true,
    });
    expect(o.stderrTail).toContain("no-such-linter-xyz");
  });

  test("cancelling through ctx.signal stops the check at once", async () => {
    const ac = new AbortController();
    // Cancel once the check is running (it says so with a file), not after a guessed delay.
    const marker = join(dir.path, "long-check-running");
    const running = runner.runCheck(check({ name: "long", run: `touch '${marker}'; sleep 30` }), ctx({ signal: ac.signal }));
    expect(await eventually(() => existsSync(marker), 10_000)).toBe(true);
    ac.abort();
    const o = await running;
    expect(o).toMatchObject({ passed: false, reason: "cancelled", timedOut: false });
    expect(o.durationMs).toBeLessThan(10_000);
  });
});

describe("refused before anything starts: typed errors, one line, no stack", () => {
  test("a timeout over the 10 minute ceiling", async () => {
    const e = await runner.runCheck(check({ name: "huge", run: "touch started", timeoutMs: 11 * 60_000 }), ctx()).catch((x) => x);
    expect(e).toBeInstanceOf(CommandSpecError);
    expect(e.message).toBe('check "huge": timeout 11m is over the ceiling of 10m');
    expect((e as VouchError).exitCode).toBe(2);
    expect(existsSync(join(project, "started"))).toBe(false);
  });

  test("a zero timeout", async () => {
    await expect(runner.runCheck(check({ name: "z", run: "true", timeoutMs: 0 }), ctx())).rejects.toThrow(
      'check "z": timeout must be greater than zero, got 0',
    );
  });

  test("an output_matches that is not a regular expression", async () => {
    await expect(runner.runCheck(check({ name: "re", run: "true", expect: { output_matches: "([" } }), ctx())).rejects.toBeInstanceOf(
      CommandSpecError,
    );
  });

  test("a missing working directory: SpawnError naming the directory (an error, not a failed check)", async () => {
    const missing = join(dir.path, "gone");
    const e = await runner.runCheck(check({ name: "tests", run: "true" }), ctx({ cwd: missing })).catch((x) => x);
    expect(e).toBeInstanceOf(SpawnError);
    expect(e.message).toBe(`check "tests" could not start: working directory ${missing} does not exist`);
    expect(e.message).not.toContain("\n");
    await runner.close();
    expect(readdirSync(tmpRoot)).toEqual([]);
  });
});

describe("scripts", () => {
  test("the state arrives on stdin and in VOUCH_STATE_FILE; the item in VOUCH_ITEM_FILE", async () => {
    const o = await runner.runScript({ argv: [stub("read-state.sh")], timeoutMs: 10_000, keepStdoutBytes: 65536 }, ctx({ item: [1, 2] }));
    const lines = o.stdoutTail.trim().split("\n");
    // In a branch the state names the run's inputs by a file (ADR 0054); stdin is the same bytes.
    const state = lines[1]!.slice("file:".length);
    expect(JSON.parse(readFileSync(JSON.parse(state).inputs_file, "utf8"))).toEqual({ n: 1 });
    expect(lines.slice(0, 3)).toEqual([`stdin:${state}`, `file:${state}`, "item:[1,2]"]);
    expect(o).toMatchObject({ exit: 0, terminationReason: "exit", signal: null, truncated: false });
    await runner.close();
    expect(existsSync(lines[3]!.slice("dir:".length))).toBe(false);
  });

  test("a run: string goes through sh -c in the node's directory", async () => {
    const o = await runner.runScript({ run: 'echo "{\\"dir\\": \\"$(pwd)\\"}"', timeoutMs: 10_000, keepStdoutBytes: 1024 }, ctx());
    expect(JSON.parse(o.stdoutTail)).toEqual({ dir: project });
  });

  test("keepStdoutBytes bounds the stdout tail; stderr keeps the runner's own size", async () => {
    const small = createCommandRunner({ parentEnv: PARENT, tmpRoot, keepBytes: 8 });
    const o = await small.runScript(
      { run: "printf 0123456789ABCDEFGHIJ; printf 0123456789ABCDEFGHIJ >&2", timeoutMs: 10_000, keepStdoutBytes: 16 },
      ctx(),
    );
    expect(o.stdoutTail).toBe("456789ABCDEFGHIJ");
    expect(o.stderrTail).toBe("CDEFGHIJ");
    expect(o.stdoutBytes).toBe(20);
    expect(o.truncated).toBe(true);
    await small.close();
  });

  test("a timeout is terminationReason wall, with what was printed", async () => {
    const o = await runner.runScript({ run: "echo partial; sleep 30", timeoutMs: 300, keepStdoutBytes: 1024 }, ctx());
    expect(o).toMatchObject({ terminationReason: "wall", stdoutTail: "partial\n", exit: null });
  });

  test("a missing program is spawn_failed with a clear message, not a throw", async () => {
    const o = await runner.runScript({ argv: ["no-such-script-xyz"], timeoutMs: 10_000, keepStdoutBytes: 1024 }, ctx());
    expect(o.terminationReason).toBe("spawn_failed");
    expect(o.spawnError).toBe("command not found: no-such-script-xyz (searched PATH=/usr/local/bin:/usr/bin:/bin)");
    await runner.close();
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  test("both run and argv, or neither, is refused", async () => {
    await expect(runner.runScript({ run: "x", argv: ["y"], timeoutMs: 1000, keepStdoutBytes: 1 }, ctx())).rejects.toThrow(
      'script of node "build": give run or argv, not both',
    );
    await expect(runner.runScript({ timeoutMs: 1000, keepStdoutBytes: 1 }, ctx())).rejects.toBeInstanceOf(CommandSpecError);
  });
});

describe("inputs as files, and a start the system refuses (issue 12, item 9)", () => {
  test("each input is a private read-only file (0400) named by VOUCH_INPUT_<NAME>_FILE, removed by close(); a 200 KB one starts fine", async () => {
    const big = "b".repeat(200 * 1024);
    const o = await runner.runScript(
      {
        run: 'stat -c %a "$VOUCH_INPUT_BIG_FILE"; wc -c < "$VOUCH_INPUT_BIG_FILE"; echo "${VOUCH_INPUT_BIG+set}|$VOUCH_INPUT_SMALL"',
        timeoutMs: 10_000,
        keepStdoutBytes: 1024,
      },
      ctx({
        inputs: [
          { stem: "BIG", text: big },
          { stem: "SMALL", text: "s" },
        ],
      }),
    );
    expect(o.terminationReason).toBe("exit");
    expect(o.stdoutTail.split("\n").map((l) => l.trim())).toEqual(["400", String(big.length), "|s", ""]);
    await runner.close();
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  test("an environment variable over 128 KiB (a passed-through one) is spawn_failed naming the variable, for scripts and checks", async () => {
    const huge = createCommandRunner({ parentEnv: { ...PARENT, HUGE_VALUE: "h".repeat(140 * 1024) }, tmpRoot });
    const s = await huge.runScript({ run: "true", timeoutMs: 10_000, keepStdoutBytes: 1024 }, ctx({ passEnv: ["HUGE_VALUE"] }));
    expect(s.terminationReason).toBe("spawn_failed");
    expect(s.spawnError).toBe(
      "could not start /bin/sh: the environment variable HUGE_VALUE is 140.0 KiB; the system refuses any one variable or argument over 128 KiB (E2BIG)",
    );
    const e = await huge.runCheck(check({ name: "c", run: "true" }), ctx({ passEnv: ["HUGE_VALUE"] })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SpawnError);
    expect((e as SpawnError).message).toMatch(/^check "c" could not start: .*HUGE_VALUE is 140\.0 KiB.*\(E2BIG\)$/);
    expect((e as SpawnError).hint).toMatch(/through files/);
    await huge.close();
  });

  test("a command text over 128 KiB is refused the same way, naming the shell command", async () => {
    const s = await runner.runScript({ run: `true ${"#".repeat(130 * 1024)}`, timeoutMs: 10_000, keepStdoutBytes: 1024 }, ctx());
    expect(s.spawnError).toMatch(/^could not start \/bin\/sh: the shell command is 130\.0 KiB; .*\(E2BIG\)$/);
  });
});
