// startTui(): the whole life of the UI on a (fake) terminal — the final frame
// before exit, the terminal restored on every way out, approvals, Ctrl-C.
import { describe, expect, test } from "vitest";
import { replayTui, startTui, type TuiOptions } from "../../src/tui/app.tsx";
import { FakeStdin, FakeStdout, KEYS, loadFixture, settle, stripAnsi, waitFor } from "./helpers/fake-terminal.ts";

const SHOW_CURSOR = "\u001b[?25h";
const HIDE_CURSOR = "\u001b[?25l";

function tui(over: Partial<TuiOptions> = {}) {
  const stdout = new FakeStdout(100, 40);
  const stdin = new FakeStdin();
  const calls: string[] = [];
  const handle = startTui({
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    color: false,
    onCancel: () => calls.push("cancel"),
    onExitNow: () => calls.push(`exitNow raw=${stdin.isRaw}`),
    ...over,
  });
  return { handle, stdout, stdin, calls };
}

/** Wait for the next frame to be published and rendered (the approval is on screen then). */
async function onScreen(handle: { frames: number }): Promise<void> {
  const before = handle.frames;
  await waitFor(() => handle.frames > before, 10_000, "a frame");
  await settle();
}

describe("startTui", () => {
  test("close() draws the final state before it resolves, then restores the terminal", async () => {
    const { handle, stdout, stdin } = tui();
    for (const e of loadFixture("map-mixed")) handle.push(e);
    await handle.close();
    const screen = stripAnsi(stdout.all());
    const last = screen.slice(screen.lastIndexOf("vouch finding-verifier"));
    expect(last).toContain("FAILED · exit 1");
    expect(last).toContain("F-006 SQL built from input        FAILED");
    expect(stdout.all()).toContain(HIDE_CURSOR);
    expect(stdout.all().lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(stdout.all().lastIndexOf(HIDE_CURSOR));
    expect(stdin.rawModes[0]).toBe(true);
    expect(stdin.isRaw).toBe(false);
    await expect(handle.done).resolves.toBeUndefined();
  });

  test("the final frame shows the last event even when it arrives right before close()", async () => {
    const { handle, stdout } = tui({ debug: true });
    const events = loadFixture("failed-check");
    for (const e of events.slice(0, -1)) handle.push(e);
    await settle();
    handle.push(events[events.length - 1]!); // run.finished, then close at once
    await handle.close();
    expect(stdout.writes.filter((w) => w.includes("vouch fix-and-test")).pop()).toContain("FAILED · exit 1");
  });

  test("a resized terminal gets frames of its new size", async () => {
    const { handle, stdout } = tui({ debug: true });
    for (const e of loadFixture("big-map")) handle.push(e);
    await waitFor(() => stdout.writes.some((w) => w.includes("412/500")), 10_000, "the big map on screen");
    stdout.resize(60, 12);
    const frame = () =>
      stdout.writes
        .filter((w) => w.includes("vouch finding-verifier"))
        .pop()!
        .split("\n");
    await waitFor(() => frame().length === 12, 10_000, "a 12-line frame");
    const last = frame();
    expect(last).toHaveLength(12);
    expect(Math.max(...last.map((l) => l.length))).toBeLessThanOrEqual(60);
    await handle.close();
  });

  test("events after close() are ignored and close() twice is harmless", async () => {
    const { handle, stdout, stdin } = tui();
    await handle.close();
    const written = stdout.writes.length;
    const frames = handle.frames;
    handle.push(loadFixture("map-mixed")[0]!);
    await expect(handle.close()).resolves.toBeUndefined();
    await settle();
    expect(handle.frames).toBe(frames);
    expect(stdout.writes.length).toBe(written); // nothing drawn on a released terminal
    expect(stdin.isRaw).toBe(false);
    await expect(handle.done).resolves.toBeUndefined();
  });

  test("first Ctrl-C asks the runner to cancel; the second restores the terminal, then exits at once", async () => {
    const { handle, stdin, stdout, calls } = tui();
    for (const e of loadFixture("failed-check").slice(0, 3)) handle.push(e);
    await settle();
    stdin.type(KEYS.ctrlC);
    await settle();
    expect(calls).toEqual(["cancel"]);
    stdin.type(KEYS.ctrlC);
    await settle();
    expect(calls).toEqual(["cancel", "exitNow raw=false"]); // raw mode was off before onExitNow ran
    expect(stdout.all().endsWith(SHOW_CURSOR) || stdout.all().lastIndexOf(SHOW_CURSOR) > stdout.all().lastIndexOf(HIDE_CURSOR)).toBe(true);
    await handle.done;
  });

  test("q, then y, on a live run asks the runner to cancel (and nothing before y)", async () => {
    const { handle, stdin, calls } = tui();
    for (const e of loadFixture("failed-check").slice(0, 3)) handle.push(e);
    await settle();
    stdin.type("q");
    await settle();
    expect(calls).toEqual([]);
    stdin.type("y");
    await settle();
    expect(calls).toEqual(["cancel"]);
    await handle.close();
  });

  test("replay: q leaves the UI (done settles) without cancelling anything", async () => {
    const { handle, stdin, calls } = tui({ replay: true });
    for (const e of loadFixture("approval")) handle.push(e);
    await settle();
    stdin.type("q");
    await handle.done;
    expect(calls).toEqual([]);
  });

  test("replayTui shows a recorded run and resolves when the user presses Ctrl-C", async () => {
    const stdout = new FakeStdout(100, 40);
    const stdin = new FakeStdin();
    let resolved = false;
    const shown = replayTui(loadFixture("overruns"), { stdout: stdout as never, stdin: stdin as never, color: false }).then(
      () => (resolved = true),
    );
    await waitFor(() => stripAnsi(stdout.all()).includes("cap overrun turns 2/1"), 10_000, "the replayed run on screen");
    await settle(10); // turns of the event loop, not a clock: whatever the events set off has happened
    expect(resolved).toBe(false); // it waits for the user
    stdin.type(KEYS.ctrlC);
    await shown;
    expect(stdin.isRaw).toBe(false);
  });

  test("approvals: a approves in place; quitting answers pause to waiting and later requests", async () => {
    const { handle, stdin } = tui();
    for (const e of loadFixture("approval").slice(0, 4)) handle.push(e);
    const first = handle.approvals.decide({ node: "ship", prompt: "Ship it?" }, new AbortController().signal);
    await onScreen(handle);
    stdin.type("a");
    await expect(first).resolves.toBe("approve");

    const second = handle.approvals.decide({ node: "ship" }, new AbortController().signal);
    await onScreen(handle);
    stdin.type("q");
    await settle();
    stdin.type("y");
    await expect(second).resolves.toBe("pause");
    await expect(handle.approvals.decide({ node: "later" }, new AbortController().signal)).resolves.toBe("pause");
    await handle.close();
  });

  test("held(): after the run the final frame waits for q; a finished run's q leaves without cancelling", async () => {
    const { handle, stdin, calls } = tui();
    for (const e of loadFixture("map-mixed")) handle.push(e);
    await onScreen(handle);
    let left = false;
    const held = handle.held().then(() => (left = true));
    await settle(10); // turns of the event loop, not a clock: whatever the events set off has happened
    expect(left).toBe(false); // it waits for the person
    stdin.type("q");
    await held;
    expect(calls).toEqual([]);
    await handle.close();
  });

  test("held(): settles at once when the person already chose to quit (q, y to leave approvals for later)", async () => {
    const { handle, stdin } = tui();
    for (const e of loadFixture("approval").slice(0, 4)) handle.push(e);
    const asked = handle.approvals.decide({ node: "ship", prompt: "Ship it?" }, new AbortController().signal);
    await onScreen(handle);
    stdin.type("q");
    await settle();
    stdin.type("y");
    await expect(asked).resolves.toBe("pause");
    await handle.held();
    await handle.close();
  });

  test("an aborted approval request is withdrawn with the signal's reason", async () => {
    const { handle } = tui();
    const ctl = new AbortController();
    const asked = handle.approvals.decide({ node: "ship" }, ctl.signal);
    ctl.abort(new Error("run cancelled"));
    await expect(asked).rejects.toThrow("run cancelled");
    await handle.close();
    await expect(handle.approvals.decide({ node: "ship" }, new AbortController().signal)).resolves.toBe("pause");
  });
});
