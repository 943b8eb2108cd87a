// `vouch watch` in a real terminal (tmux, 100x30) shows the screen the run's own live
// view shows (issue 31, ADR 0063): the shipped demo (the finding verifier, replayed
// slowly) runs in one terminal, `vouch watch last` follows it from another. The final
// frames are compared whole, colours included — nothing on them depends on the clock.
// While running, the two are compared with the timing fields normalised (live elapsed
// times and the spinner's glyph: the two processes draw at different moments), as
// shape only. Then q leaves both, each with the run's exit code.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanEnv, DEMO_ARGS, ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";
import { gatedMapGraph, release, writeGraph } from "./remote-helpers.ts";
import { TMUX, TmuxScreen, exitedWith } from "./tmux.ts";

let dir: TempDir;
const screens: TmuxScreen[] = [];
beforeAll(() => {
  if (!TMUX) return;
  ensureBinary();
  dir = tempDir("watch-tmux");
});
afterEach(() => {
  for (const s of screens.splice(0)) s.kill();
});
afterAll(() => dir?.cleanup());

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g;
/** Live timing fields: "2.4s", "485ms", "1m05s", the spinner's frame. */
const timing = (line: string) => line.replace(SPINNER, "*").replace(/\b\d+(\.\d+)?(ms|s)\b|\b\d+m\d+s\b/g, "T");
const finalFrame = (s: string[]) => s.some((l) => l.includes("PASSED · exit 0"));

describe.skipIf(!TMUX)("vouch watch in tmux", () => {
  test("the same screen as the run's own live view: while running (timing normalised) and at the end (exactly)", async () => {
    const home = join(dir.path, ".vouch");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir.path, LANG: "C.UTF-8", VOUCH_HOME: home };
    const own = new TmuxScreen(dir.path);
    const watch = new TmuxScreen(dir.path);
    screens.push(own, watch);
    own.start([BINARY, "run", ...DEMO_ARGS, "--replay-delay", "150ms"], env);
    await own.waitFor("the run to be running", (s) => /^vouch finding-verifier {2}running /.test(s[0] ?? ""));
    watch.start([BINARY, "watch", "last"], env);
    const mid = await watch.waitFor("the watch to show the run running", (s) => /^vouch finding-verifier {2}running /.test(s[0] ?? ""));
    // While the run goes on the two draw at different moments (a node may finish between the
    // captures): the same header (but for the clock and the cost so far), the same rows in the
    // same order, the same keys.
    const ownMid = own.capture();
    const headerShape = (l: string) => timing(l).replace(/\$[\d.]+ \//, "$x /");
    expect(headerShape(mid[0]!).split(/\s+/).slice(0, 3)).toEqual(headerShape(ownMid[0]!).split(/\s+/).slice(0, 3));
    const rows = (s: string[]) =>
      s.filter((l) => /^[ ›] \S \w+ +(agent|end|map) /.test(l)).map((l) => l.split(/\s+/).slice(2, 4).join(" "));
    expect(rows(mid)).toEqual(rows(ownMid));
    expect(rows(mid)).toEqual(["parse agent", "parse_fault end", "verify_each map", "done end"]);
    expect(mid.at(-1)).toBe("↑↓ select · ⏎ details · ←→ fold · q quit");
    expect(mid.at(-1)).toBe(ownMid.at(-1));

    const ownEnd = await own.waitFor("the run's final frame", finalFrame);
    const watchEnd = await watch.waitFor("the watch's final frame", finalFrame);
    expect(watchEnd).toEqual(ownEnd);
    expect(watch.captureEscapes()).toBe(own.captureEscapes());

    // q leaves each; the watch ends with the run's exit code, as the run does.
    own.keys("q");
    watch.keys("q");
    const ownExit = await own.waitFor("the run to exit", (s) => exitedWith(s) !== null);
    const watchExit = await watch.waitFor("the watch to exit", (s) => exitedWith(s) !== null);
    expect([exitedWith(ownExit), exitedWith(watchExit)]).toEqual([0, 0]);
    const said = (s: string[]) => s.find((l) => l.startsWith("run ") && l.includes("vouch show"));
    expect(said(watchExit)).toBe(said(ownExit));
  }, 120_000);

  test("q while the run goes on leaves the watch (exit 130) and never stops the run", async () => {
    const home = join(dir.path, ".vouch-q");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir.path, LANG: "C.UTF-8", VOUCH_HOME: home };
    const own = new TmuxScreen(dir.path);
    const watch = new TmuxScreen(dir.path);
    screens.push(own, watch);
    own.start([BINARY, "run", ...DEMO_ARGS, "--replay-delay", "150ms"], env);
    await own.waitFor("the run to be running", (s) => /^vouch finding-verifier {2}running /.test(s[0] ?? ""));
    watch.start([BINARY, "watch", "last"], env);
    await watch.waitFor("the watch to show it running", (s) => /running/.test(s[0] ?? ""));
    watch.keys("q"); // no question: watching is not running
    const left = await watch.waitFor("the watch to exit", (s) => exitedWith(s) !== null);
    expect(exitedWith(left)).toBe(130);
    const end = await own.waitFor("the run to go on to its end", finalFrame);
    expect(end[0]).toMatch(/PASSED · exit 0/);
  }, 120_000);

  test("an approval the run waits on is asked in the watch's view: a approves it, recorded as the watch's", async () => {
    const home = join(dir.path, ".vouch-a");
    const work = join(dir.path, "approve");
    mkdirSync(work, { recursive: true });
    release(work, "all");
    const graph = writeGraph(work, gatedMapGraph(work, { items: 2 }));
    const run = Bun.spawn([BINARY, "run", graph, "--json", "--wait-approvals"], {
      cwd: work,
      env: cleanEnv({ home }),
      stdout: "pipe",
      stderr: "pipe",
    });
    // The run exists once its first event is out: only then is there a run to watch.
    const reader = run.stdout.getReader();
    await reader.read();
    void (async () => {
      while (!(await reader.read()).done); // keep its pipe drained
    })();
    const watch = new TmuxScreen(dir.path);
    screens.push(watch);
    watch.start([BINARY, "watch", "last"], {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir.path,
      LANG: "C.UTF-8",
      VOUCH_HOME: home,
    });
    const asked = await watch.waitFor("the approval asked on screen", (s) => s.at(-1)?.includes("a approve") === true);
    expect(asked.join("\n")).toContain("ship it?");
    watch.keys("a");
    expect(await run.exited).toBe(0);
    await watch.waitFor("the final frame", finalFrame);
    watch.keys("q");
    expect(exitedWith(await watch.waitFor("the watch to exit", (s) => exitedWith(s) !== null))).toBe(0);
    const shown = JSON.parse((await vouch(["show", "last", "--json"], { home, cwd: work })).stdout) as { requests: unknown[] };
    expect(shown.requests).toEqual([expect.objectContaining({ kind: "decision", node: "gate", decision: "approve", via: "watch" })]);
  }, 120_000);
});
