// Frames as Ink renders them (ink-testing-library), from recorded event
// sequences: the text a person reads, per branch, per check, per overrun.
import { afterEach, describe, expect, test } from "vitest";
import { cleanup, render } from "ink-testing-library";
import type { VouchEvent } from "../../src/engine/events.ts";
import { effectHandler } from "../../src/tui/effects.ts";
import { AppView } from "../../src/tui/ink/app-view.tsx";
import type { Effect } from "../../src/tui/keys.ts";
import { createTuiStore, type TuiStore } from "../../src/tui/tui-store.ts";
import { displayWidth } from "../../src/text/width.ts";
import { loadFixture, settle } from "./helpers/fake-terminal.ts";

afterEach(() => cleanup());

function storeWith(events: VouchEvent[]): TuiStore {
  const store = createTuiStore();
  for (const e of events) store.push(e);
  store.flush();
  return store;
}

async function frameOf(events: VouchEvent[], size = { columns: 80, rows: 40 }, color = false) {
  const store = storeWith(events);
  const effects: Effect[] = [];
  const apply = effectHandler(store, { onCancel() {}, onExitNow() {}, onQuit() {} });
  const onEffect = (e: Effect) => {
    effects.push(e);
    apply(e);
  };
  const r = render(<AppView store={store} color={color} replay={false} onEffect={onEffect} size={size} />);
  await settle();
  return { r, store, effects, frame: () => r.lastFrame() ?? "" };
}

describe("Ink frames of recorded runs", () => {
  test("a map of 6 branches: each row carries its own verdict", async () => {
    const { frame } = await frameOf(loadFixture("map-mixed"));
    const rows = frame().split("\n");
    const verdictOf = (label: string) =>
      rows
        .find((l) => l.includes(label))
        ?.trim()
        .split(/\s+/)
        .pop();
    expect(["F-001", "F-002", "F-003", "F-004", "F-005", "F-006"].map(verdictOf)).toEqual([
      "VERIFIED",
      "FALSE",
      "UNVERIFIABLE",
      "VERIFIED",
      "ERROR",
      "FAILED",
    ]);
    expect(frame()).toContain("FAILED · exit 1");
  });

  test("a failed check: ✗, why, and the tail of its output are on screen", async () => {
    const { frame } = await frameOf(loadFixture("failed-check"));
    expect(frame()).toContain("✗ tests  exit 1 · expect exit_zero");
    expect(frame()).toContain("│   Expected: 3");
    expect(frame()).toContain("│   Received: 4");
    expect(frame()).toContain("✓ lint");
  });

  test("a turns overrun reads turns 2/1", async () => {
    const { frame } = await frameOf(loadFixture("overruns"));
    expect(frame()).toContain("⚠ cap overrun turns 2/1");
    expect(frame()).toContain("⚠ cap overrun budget_usd $0.0047/$0.001");
  });

  test("an approval prompt with its a/r keys, answered with a", async () => {
    const live = loadFixture("approval").filter((e) => e.type !== "run.paused" && e.type !== "run.finished");
    const { r, store, frame } = await frameOf(live);
    const answer = store.approvals.decide(
      { node: "ship", prompt: "Ship v2.3.0 to production?\nThe canary has been green for 30 minutes." },
      new AbortController().signal,
    );
    store.flush();
    await settle();
    expect(frame()).toContain("? approval ship");
    expect(frame()).toContain("│ Ship v2.3.0 to production?");
    expect(frame()).toContain("│ The canary has been green for 30 minutes.");
    expect(frame()).toContain("a approve   r reject");
    r.stdin.write("a");
    await settle();
    expect(store.approvals.pending()).toEqual([]);
    await expect(answer).resolves.toBe("approve");
  });

  test("at 80 columns no rendered line is wider than 80", async () => {
    for (const name of ["map-mixed", "failed-check", "overruns", "retry-fallback", "big-map"]) {
      const { frame, r } = await frameOf(loadFixture(name), { columns: 80, rows: 30 });
      const lines = frame().split("\n");
      expect(lines.length).toBeLessThanOrEqual(30);
      expect(lines.filter((l) => displayWidth(l) > 80)).toEqual([]);
      r.unmount();
    }
  });

  test("the frame follows the terminal size it is given", async () => {
    const { frame } = await frameOf(loadFixture("big-map"), { columns: 60, rows: 12 });
    const lines = frame().split("\n");
    expect(lines).toHaveLength(12);
    expect(lines[lines.length - 1]).toContain("q quit");
  });
});
