// The live UI of the real binary in a real terminal (tmux, 100x30), read the
// way a person reads it: the shipped finding verifier replayed slowly enough
// (--replay-delay) to be seen running, its final frame, `q` to leave, and the
// terminal left as it was found. And `q` on a live run: it asks, `y` cancels
// (exit 130, the run recorded as interrupted).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, DEMO_ARGS, ROOT, ensureBinary, sampleGitRepo, runsOf, tempDir, type TempDir } from "./helpers.ts";
import { TMUX, TmuxScreen, exitedWith } from "./tmux.ts";

if (!TMUX) console.warn("test/e2e/tui-tmux.test.ts skipped: tmux is not installed (apt-get install tmux)");

let dir: TempDir;
const screens: TmuxScreen[] = [];
// step-runner works in a worktree of the repository holding project_dir: a private one.
const STEP_REPO = sampleGitRepo();
afterAll(() => STEP_REPO.cleanup());

beforeAll(() => {
  if (!TMUX) return;
  ensureBinary();
  dir = tempDir("tmux");
});
afterEach(() => {
  for (const s of screens.splice(0)) s.kill();
});
afterAll(() => dir?.cleanup());

function open(name: string, delay: string): { screen: TmuxScreen; home: string } {
  const home = join(dir.path, name);
  const screen = new TmuxScreen(dir.path);
  screens.push(screen);
  screen.start([BINARY, "run", ...DEMO_ARGS, "--replay-delay", delay], {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir.path,
    LANG: "C.UTF-8",
    VOUCH_HOME: home,
  });
  return { screen, home };
}

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const running = (s: string[]) =>
  /^vouch finding-verifier {2}running /.test(s[0] ?? "") && s.some((l) => new RegExp(`^ {4}${SPINNER.source} #\\d+ F\\d`).test(l));

/** The terminal modes a shell needs back: line editing and echo on. */
function expectTerminalRestored(screen: TmuxScreen) {
  const stty = readFileSync(screen.sttyFile, "utf8");
  expect(stty).toMatch(/(^|\s)icanon(\s|$)/);
  expect(stty).toMatch(/(^|\s)echo(\s|$)/);
  expect(stty).not.toMatch(/(^|\s)-(icanon|echo)(\s|$)/);
}

describe.skipIf(!TMUX)("the live UI in tmux", () => {
  test("running, then the final frame until q, then a restored terminal", async () => {
    const { screen, home } = open("demo", "120ms");

    const mid = await screen.waitFor("the run to be seen running", running);
    expect(mid[1]).toMatch(/^run \S+ {2}.*running/);
    expect(mid.some((l) => /^[ ›] . verify_each +map +running/.test(l))).toBe(true);
    expect(mid.at(-1)).toBe("↑↓ select · ⏎ details · ←→ fold · q quit");

    const end = await screen.waitFor("the final frame", (s) => s.some((l) => l.includes("PASSED · exit 0")));
    expect(end[0]).toMatch(/^vouch finding-verifier {2}PASSED · exit 0 {2}\d/);
    expect(end[1]).toMatch(/^run \S+ {2}7 passed · 1 failed · 1 error · 1 skipped {2}· 7 sealed$/);
    const rows = end.filter((l) => /^ {4}. #\d F\d/.test(l)).map((l) => l.trim().replace(/\s+/g, " "));
    expect(rows).toEqual([
      "✓ #0 F1 VERIFIED",
      "✓ #1 F2 FALSE",
      "✓ #2 F3 UNVERIFIABLE",
      "✓ #3 F4 VERIFIED",
      "✗ #4 F5 UNVERIFIABLE",
      "! #5 F6 UNVERIFIABLE",
    ]);
    const text = end.join("\n");
    expect(text).toContain("│ src/cache.js:40: src/cache.js has 22 lines; cited line 40"); // the failed check's tail
    expect(text).toContain("⚠ cap overrun turns 9/8");
    expect(text).toContain("↻ attempt 1 output_invalid: output is not JSON"); // the one-line error, not the quoted prompt
    expect(end.every((l) => l.length <= 100)).toBe(true);
    // The run is over but the screen stays for the person to read, and still answers keys, until q.
    expect(exitedWith(end)).toBeNull();
    expect(end.at(-1)).toBe("↑↓ select · ⏎ details · ←→ fold · q quit");
    expect(end.find((l) => l.includes("parse "))).toMatch(/^› ✓ parse /);
    screen.keys("Down");
    const moved = await screen.waitFor("the selection to move", (s) => s.some((l) => /^› - parse_fault /.test(l)));
    expect(exitedWith(moved)).toBeNull();
    // Meanwhile the run is recorded and no longer live (its lock released): other commands can use it.
    expect((await runsOf(home)).map((r) => [r.status, r.exit_code, r.live])).toEqual([["passed", 0, false]]);

    screen.keys("q");
    const after = await screen.waitFor("the program to exit", (s) => exitedWith(s) !== null);
    expect(exitedWith(after)).toBe(0);
    // The final frame stays in the terminal, with where to find the run.
    expect(after.some((l) => /^vouch finding-verifier {2}PASSED · exit 0/.test(l))).toBe(true);
    expect(after.some((l) => /^run \S+: passed \(exit 0\) — vouch show \S+$/.test(l))).toBe(true);
    expectTerminalRestored(screen);
    expect((await runsOf(home)).map((r) => [r.status, r.exit_code])).toEqual([["passed", 0]]);
  });

  test("SIGTERM while the final frame is up: the UI leaves, the terminal is restored, the exit code is the run's", async () => {
    const screen = new TmuxScreen(dir.path);
    screens.push(screen);
    const home = join(dir.path, "term");
    const args = [join(ROOT, "graphs", "step-runner.yaml"), "--harness", "replay", "-i", "task=t", "-i", `project_dir=${STEP_REPO.path}`];
    screen.start([BINARY, "run", ...args], {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir.path,
      LANG: "C.UTF-8",
      VOUCH_HOME: home,
    });
    const end = await screen.waitFor("the final frame", (s) => s.some((l) => l.includes("PASSED · exit 0")));
    expect(exitedWith(end)).toBeNull();
    process.kill(screen.programPid(), "SIGTERM");
    const gone = await screen.waitFor("the program to exit", (s) => exitedWith(s) !== null);
    expect(exitedWith(gone)).toBe(0);
    expect(gone.join("\n")).not.toContain("cancelling");
    expectTerminalRestored(screen);
  });

  test("q on a live run asks first: n keeps it running, y cancels it (exit 130, interrupted)", async () => {
    const { screen, home } = open("cancel", "400ms");
    await screen.waitFor("the run to be seen running", running);

    screen.keys("q");
    const asked = await screen.waitFor("the question", (s) => s.some((l) => l.startsWith("Cancel the run?")));
    expect(asked).toContain("Cancel the run? Running work is stopped and recorded as interrupted.  y yes · n no");
    screen.keys("n");
    const kept = await screen.waitFor("the question to go", (s) => !s.some((l) => l.startsWith("Cancel the run?")));
    expect(exitedWith(kept)).toBeNull();

    screen.keys("q");
    await screen.waitFor("the question again", (s) => s.some((l) => l.startsWith("Cancel the run?")));
    screen.keys("y");
    const gone = await screen.waitFor("the program to exit", (s) => exitedWith(s) !== null);
    expect(exitedWith(gone)).toBe(130);
    expect(gone.some((l) => /^run \S+: interrupted \(exit 130\) — vouch show \S+$/.test(l))).toBe(true);
    expectTerminalRestored(screen);
    expect((await runsOf(home)).map((r) => [r.status, r.exit_code])).toEqual([["interrupted", 130]]);
  });

  test("Ctrl-\\ on a live run cancels it like Ctrl-C (exit 130, interrupted): the live UI reads the key, no signal comes", async () => {
    // In the live UI the terminal is raw, so Ctrl-\\ arrives as a byte (0x1c), not as SIGQUIT.
    const { screen, home } = open("quit-key", "400ms");
    await screen.waitFor("the run to be seen running", running);
    screen.keys("C-\\");
    await screen.waitFor("the cancel notice", (s) => s.some((l) => l.startsWith("cancelling…")));
    const gone = await screen.waitFor("the program to exit", (s) => exitedWith(s) !== null);
    expect(exitedWith(gone)).toBe(130);
    expectTerminalRestored(screen);
    expect((await runsOf(home)).map((r) => [r.status, r.exit_code])).toEqual([["interrupted", 130]]);
  });
});
