// The three outputs of the real binary, on the shipped graphs replayed (no
// model): plain lines and --json of the same graph carry the same facts; every
// plain line is one significant event (or a line indented under it) and fits
// $COLUMNS; a reader that goes away (`| head -1`) interrupts the run, which
// stays resumable; NO_COLOR turns colour off on a terminal.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { join } from "node:path";
import type { EventOf } from "../../src/engine/events.ts";
import { displayWidth } from "../../src/text/width.ts";
import { factsFromJson, factsFromPlain } from "../tui/helpers/facts.ts";
import {
  BINARY,
  DEMO_ARGS,
  ROOT,
  cleanEnv,
  sampleGitRepo,
  ensureBinary,
  parseNdjson,
  runsOf,
  tempDir,
  vouch,
  type Ran,
  type TempDir,
} from "./helpers.ts";
import { TMUX, TmuxScreen, exitedWith } from "./tmux.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("outputs");
});
afterAll(() => dir.cleanup());

const STEP_REPO = sampleGitRepo();
afterAll(() => STEP_REPO.cleanup());
const STEP_RUNNER = [
  join(ROOT, "graphs", "step-runner.yaml"),
  "--harness",
  "replay",
  "-i",
  "task=Make TtlCache.get honour ttlMs",
  "-i",
  `project_dir=${STEP_REPO.path}`,
];

/** A plain line that is not a fact must be the run's header or a line indented under a fact. */
function unaccounted(lines: string[]): string[] {
  return lines.filter(
    (l) =>
      factsFromPlain([l]).length === 0 &&
      !/^▶ \S+ {2}run \S+ started$/.test(l) &&
      !/^ {2}\d+ nodes?( · .+)?$/.test(l) &&
      !l.startsWith("    "),
  );
}

/** The same graph run three times: --json, plain at 80 columns, plain uncut (a pipe without $COLUMNS). */
const runs = new Map<string, Promise<{ json: Ran; narrow: Ran; wide: Ran }>>();
function threeWays(name: string, args: string[]) {
  if (!runs.has(name)) {
    const home = join(dir.path, name);
    runs.set(
      name,
      (async () => ({
        json: await vouch(["run", ...args, "--json"], { home }),
        narrow: await vouch(["run", ...args], { home, env: { COLUMNS: "80" } }),
        wide: await vouch(["run", ...args], { home }),
      }))(),
    );
  }
  return runs.get(name)!;
}

describe("plain and --json from the same graph carry the same facts", () => {
  test.each([
    ["finding-verifier", DEMO_ARGS],
    ["step-runner", STEP_RUNNER],
  ])("%s", async (name, args) => {
    const { json, narrow: plain, wide } = await threeWays(name, args);
    expect([json.code, plain.code, wide.code]).toEqual([0, 0, 0]);
    expect([json.stderr, plain.stderr, wide.stderr]).toEqual(["", "", ""]);
    const events = parseNdjson(json.stdout);
    const lines = plain.stdout.replace(/\n$/, "").split("\n");

    // Plain is cut at $COLUMNS, so compare the facts of the uncut plain rendering of the same graph…
    const facts = factsFromJson(json.stdout);
    // (two runs: parallel branches may finish in another order, so the facts are compared as sets)
    expect(factsFromPlain(wide.stdout.split("\n")).sort()).toEqual([...facts].sort());
    expect(facts.filter((f) => f.startsWith("branch ")).length + facts.filter((f) => f.startsWith("node ")).length).toBeGreaterThan(3);
    // …and hold the 80-column one to its width and to one line per significant event.
    expect(lines.filter((l) => displayWidth(l) > 80)).toEqual([]);
    expect(unaccounted(lines)).toEqual([]);
    // The run's last lines: its end, its counts, how its nodes were sealed (ADR 0040).
    expect(lines.at(-3)).toMatch(/^■ run passed · exit 0 {2}\$0\.\d+ · /);
    expect(lines.at(-1)).toMatch(/^ {2}sandbox: \d+ sealed/);
    // No escape codes in a pipe.
    expect(plain.stdout).not.toContain("\u001b");
    expect((events.at(-1) as EventOf<"run.finished">).exit_code).toBe(0);
  });

  test("the shipped demo's plain lines say what a person needs: verdicts, the retry's error, the check's tail, the overrun", async () => {
    const r = (await threeWays("finding-verifier", DEMO_ARGS)).wide;
    const lines = r.stdout.split("\n");
    const verdicts = lines
      .filter((l) => /^. verify_each\[\d\] F\d {2}/.test(l))
      .map((l) => l.slice(2))
      .sort();
    expect(verdicts).toEqual([
      "verify_each[0] F1  VERIFIED",
      "verify_each[1] F2  FALSE",
      "verify_each[2] F3  UNVERIFIABLE",
      "verify_each[3] F4  VERIFIED",
      "verify_each[4] F5  UNVERIFIABLE",
      "verify_each[5] F6  UNVERIFIABLE",
    ]);
    expect(lines).toContain(
      '↻ verify_each[3].verify_one attempt 1 output_invalid, retrying: output is not JSON: the result is not JSON and holds no fenced code block (JSON Parse error: Unexpected identifier "Yes")',
    );
    expect(lines).toContain("    │ src/cache.js:40: src/cache.js has 22 lines; cited line 40");
    expect(lines).toContain("⚠ verify_each[5].verify_one cap overrun turns 9/8");
    expect(r.stdout).not.toContain("Your previous attempt");
  });

  test("the feedback loop's second round is announced and marked", async () => {
    const r = (await threeWays("step-runner", STEP_RUNNER)).wide;
    // (the worktree lines under each node, "    ⎇ vouch/...", are left out here)
    const lines = r.stdout
      .split("\n")
      .filter((l) => !l.startsWith("    ⎇ "))
      .map((l) => l.replace(/ {2}\$.*?(?= {2}↺|$)/, ""));
    const at = lines.indexOf("↺ implement round 2: a feedback loop runs it again");
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at - 1, at + 3)).toEqual([
      "✓ review passed exit-only",
      "↺ implement round 2: a feedback loop runs it again",
      "✓ implement passed verified  ↺ round 2",
      "✓ review passed exit-only  ↺ round 2",
    ]);
  });
});

describe("interrupting a --json run", () => {
  test("Ctrl-C (SIGINT): the human message goes to stderr, stdout stays NDJSON and ends interrupted (130)", async () => {
    const home = join(dir.path, "sigint");
    const p = Bun.spawn([BINARY, "run", ...DEMO_ARGS, "--json", "--replay-delay", "120ms"], {
      env: cleanEnv({ home }),
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = p.stdout.getReader();
    const decoder = new TextDecoder();
    let stdout = "";
    // Interrupt once the map's branches are under way.
    while (!stdout.includes('"type":"branch.started"')) {
      const { value, done } = await reader.read();
      if (done) break;
      stdout += decoder.decode(value, { stream: true });
    }
    p.kill("SIGINT");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      stdout += decoder.decode(value, { stream: true });
    }
    const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    expect(code).toBe(130);
    expect(stderr).toBe("vouch: cancelling the run (children are stopped; Ctrl-C again to stop at once)\n");
    const events = parseNdjson(stdout);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "interrupted", exit_code: 130 });
    expect(events.some((e) => e.type === "node.finished" && e.status === "cancelled")).toBe(true);
  });

  test("a reader that goes away — vouch run --json | head -1: one event, no EPIPE noise, the run interrupted (130) and resumable", async () => {
    const home = join(dir.path, "epipe");
    const script = '{ "$0" "$@"; echo "vouch exited $?" >&2; } | head -1';
    const p = Bun.spawn(["sh", "-c", script, BINARY, "run", ...DEMO_ARGS, "--json", "--replay-delay", "120ms"], {
      env: cleanEnv({ home }),
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(parseNdjson(stdout).map((e) => e.type)).toEqual(["run.started"]);
    expect(stderr).toBe("vouch exited 130\n");
    const [run] = await runsOf(home);
    expect(run).toMatchObject({ status: "interrupted", exit_code: 130 });

    const resumed = await vouch(["resume", run!.id, "--json"], { home });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    const events = parseNdjson(resumed.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", resumed: true, run: run!.id });
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "passed", exit_code: 0 });
  });
});

describe.skipIf(!TMUX)("NO_COLOR on a terminal", () => {
  const screens: TmuxScreen[] = [];
  afterEach(() => {
    for (const s of screens.splice(0)) s.kill();
  });
  const SGR_COLOR = /\u001b\[[0-9;]*(3[0-7]|9[0-7]|38;[25];)[0-9;]*m/;

  async function screenOf(args: string[], env: Record<string, string>, until: (s: string[]) => boolean) {
    const screen = new TmuxScreen(dir.path);
    screens.push(screen);
    screen.start([BINARY, ...args], { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir.path, LANG: "C.UTF-8", ...env });
    await screen.waitFor("the output", until);
    return { screen, coloured: screen.captureEscapes() };
  }

  test("--plain on a terminal is coloured, and not with NO_COLOR=1", async () => {
    const done = (s: string[]) => exitedWith(s) !== null;
    const home = join(dir.path, "plain-colour");
    const args = ["run", ...STEP_RUNNER, "--plain"];
    expect((await screenOf(args, { VOUCH_HOME: home }, done)).coloured).toMatch(SGR_COLOR);
    const bare = await screenOf(args, { VOUCH_HOME: home, NO_COLOR: "1" }, done);
    expect(bare.coloured).toContain("↺ implement round 2");
    expect(bare.coloured).not.toMatch(SGR_COLOR);
  });

  test("the live UI with NO_COLOR=1 draws no colour", async () => {
    const { screen, coloured } = await screenOf(["run", ...STEP_RUNNER], { VOUCH_HOME: join(dir.path, "tui-colour"), NO_COLOR: "1" }, (s) =>
      s.some((l) => l.includes("PASSED · exit 0")),
    );
    expect(coloured).toContain("PASSED · exit 0");
    expect(coloured).not.toMatch(SGR_COLOR);
    screen.keys("q");
    expect(exitedWith(await screen.waitFor("the program to exit", (s) => exitedWith(s) !== null))).toBe(0);
  });
});
