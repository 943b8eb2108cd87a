// Keys: the pure decisions (handleKey) and the same keys typed into the Ink app.
import { afterEach, describe, expect, test } from "vitest";
import { cleanup, render } from "ink-testing-library";
import type { VouchEvent } from "../../src/engine/events.ts";
import { effectHandler } from "../../src/tui/effects.ts";
import { AppView } from "../../src/tui/ink/app-view.tsx";
import { handleKey, initialUi, type Effect, type KeyContext } from "../../src/tui/keys.ts";
import { createTuiStore } from "../../src/tui/tui-store.ts";
import { KEYS, loadFixture, settle, waitFor } from "./helpers/fake-terminal.ts";

afterEach(() => cleanup());

const ctx = (over: Partial<KeyContext> = {}): KeyContext => ({
  selectable: ["a", "m", "m#0", "m#1", "m#fold", "z"],
  bodyHeight: 10,
  live: true,
  replay: false,
  pendingApprovals: 0,
  maps: new Set(["m"]),
  ...over,
});

describe("handleKey decides", () => {
  test("↑/↓ move the selection and stop at the ends", () => {
    let ui = initialUi();
    ui = handleKey(ui, "down", ctx()).ui;
    expect(ui.selected).toBe("m");
    ui = handleKey(ui, "end", ctx()).ui;
    ui = handleKey(ui, "down", ctx()).ui;
    expect(ui.selected).toBe("z");
    ui = handleKey(ui, "home", ctx()).ui;
    ui = handleKey(ui, "up", ctx()).ui;
    expect(ui.selected).toBe("a");
  });

  test("Enter opens details, Esc closes them; Enter on a fold line lists the branches", () => {
    const ui = handleKey({ ...initialUi(), selected: "m#1" }, "enter", ctx()).ui;
    expect(ui.details).toEqual({ key: "m#1", scroll: 0 });
    expect(handleKey(ui, "escape", ctx()).ui.details).toBeNull();
    expect(handleKey({ ...initialUi(), selected: "m#fold" }, "enter", ctx()).ui.fold).toEqual({ m: "open" });
  });

  test("q on a live run asks first; y cancels, n keeps running", () => {
    const asked = handleKey(initialUi(), { char: "q" }, ctx());
    expect(asked).toMatchObject({ ui: { confirm: "cancel" }, effects: [] });
    expect(handleKey(asked.ui, { char: "y" }, ctx()).effects).toEqual([{ kind: "cancel" }]);
    expect(handleKey(asked.ui, { char: "n" }, ctx())).toMatchObject({ ui: { confirm: null }, effects: [] });
    expect(handleKey(asked.ui, "down", ctx()).ui).toBe(asked.ui); // the question waits for y/n
  });

  test("q on a finished run or a replay just leaves", () => {
    expect(handleKey(initialUi(), { char: "q" }, ctx({ live: false })).effects).toEqual([{ kind: "quit" }]);
    expect(handleKey(initialUi(), { char: "q" }, ctx({ replay: true, live: false })).effects).toEqual([{ kind: "quit" }]);
  });

  test("q while an approval waits offers to leave it for later (pause), not to cancel", () => {
    const asked = handleKey(initialUi(), { char: "q" }, ctx({ pendingApprovals: 1 }));
    expect(asked.ui.confirm).toBe("pause");
    expect(handleKey(asked.ui, { char: "y" }, ctx({ pendingApprovals: 1 }))).toMatchObject({
      ui: { pausedApprovals: true },
      effects: [{ kind: "pauseApprovals" }],
    });
  });

  test("Ctrl-C cancels gracefully, a second Ctrl-C exits at once", () => {
    const first = handleKey(initialUi(), "ctrlC", ctx());
    expect(first.effects).toEqual([{ kind: "cancel" }]);
    expect(handleKey(first.ui, "ctrlC", ctx()).effects).toEqual([{ kind: "exitNow" }]);
  });

  test("a and r answer the approval on screen, and only when one is waiting", () => {
    const approval = { id: 7, node: "ship" };
    expect(handleKey(initialUi(), { char: "a" }, ctx({ approval, pendingApprovals: 1 })).effects).toEqual([
      { kind: "answer", id: 7, decision: "approve" },
    ]);
    expect(handleKey(initialUi(), { char: "r" }, ctx({ approval, pendingApprovals: 1 })).effects).toEqual([
      { kind: "answer", id: 7, decision: "reject" },
    ]);
    expect(handleKey(initialUi(), { char: "a" }, ctx()).effects).toEqual([]);
  });

  test("→ shows more of a map, ← less, from the map row or any of its branches", () => {
    let ui = handleKey({ ...initialUi(), selected: "m#0" }, "right", ctx()).ui;
    expect(ui.fold).toEqual({ m: "open" });
    ui = handleKey(ui, "left", ctx()).ui;
    expect(ui.fold).toEqual({});
    ui = handleKey(ui, "left", ctx()).ui;
    expect(ui.fold).toEqual({ m: "closed" });
    expect(ui.selected).toBe("m"); // its branch rows are gone: the selection moves to the map
    expect(handleKey({ ...initialUi(), selected: "a" }, "right", ctx()).ui.fold).toEqual({});
  });

  // Found in review (ADR 0019): the fold record was indexed directly, so a map
  // named __proto__ (a ledger from before ids were refused, in show --tui)
  // never opened, and `constructor` read Object's constructor as its fold.
  test.each(["__proto__", "constructor", "valueOf"])("→ and ← fold a map named %s like any other", (id) => {
    const c = ctx({ selectable: [id, `${id}#0`], maps: new Set([id]) });
    let ui = handleKey({ ...initialUi(), selected: `${id}#0` }, "right", c).ui;
    expect(Object.hasOwn(ui.fold, id) && ui.fold[id]).toBe("open");
    ui = handleKey(ui, "left", c).ui;
    expect(Object.keys(ui.fold)).toEqual([]);
    ui = handleKey(ui, "left", c).ui;
    expect(Object.hasOwn(ui.fold, id) && ui.fold[id]).toBe("closed");
    ui = handleKey(ui, "right", c).ui;
    expect(Object.keys(ui.fold)).toEqual([]);
  });
});

async function app(events: VouchEvent[], opts: { replay?: boolean; rows?: number } = {}) {
  const store = createTuiStore();
  for (const e of events) store.push(e);
  store.flush();
  const effects: Effect[] = [];
  const apply = effectHandler(store, { onCancel() {}, onExitNow() {}, onQuit() {} });
  const r = render(
    <AppView
      store={store}
      color={false}
      replay={opts.replay === true}
      onEffect={(e) => (effects.push(e), apply(e))}
      size={{ columns: 100, rows: opts.rows ?? 40 }}
    />,
  );
  await settle();
  const press = async (k: string) => {
    r.stdin.write(k);
    // A lone ESC is held briefly by Ink (it may start an escape sequence): wait for the frame to change.
    if (k === KEYS.escape) {
      const before = r.lastFrame();
      await waitFor(() => r.lastFrame() !== before, 10_000, "Esc to take effect");
    }
    await settle();
  };
  return { r, store, effects, press, frame: () => r.lastFrame() ?? "" };
}

const selectedRow = (frame: string) => frame.split("\n").find((l) => l.startsWith("›")) ?? "";

describe("keys typed into the app", () => {
  test("↓ ↓ then Enter opens the details of the selected branch; Esc returns", async () => {
    const { press, frame } = await app(loadFixture("map-mixed"));
    expect(selectedRow(frame())).toContain("parse");
    await press(KEYS.down);
    expect(selectedRow(frame())).toContain("verify_each");
    await press(KEYS.down);
    expect(selectedRow(frame())).toContain("#0 F-001");
    await press(KEYS.down);
    await press(KEYS.down);
    await press(KEYS.enter);
    expect(frame()).toContain("verify_each[2]  F-003 leaked fd in open_log");
    expect(frame()).toContain("#1 retrying");
    expect(frame()).toContain("esc back");
    await press(KEYS.escape);
    expect(frame()).not.toContain("esc back");
    expect(selectedRow(frame())).toContain("#2 F-003");
  });

  test("q on a live run asks to cancel; y asks the runner to cancel; the notice stays", async () => {
    const live = loadFixture("failed-check").slice(0, 3);
    const { press, frame, effects } = await app(live);
    await press("q");
    expect(frame()).toContain("Cancel the run?");
    expect(effects).toEqual([]);
    await press("y");
    expect(effects).toEqual([{ kind: "cancel" }]);
    expect(frame()).toContain("cancelling… (Ctrl-C again exits at once)");
  });

  test("q in a replay leaves without asking", async () => {
    const { press, effects, frame } = await app(loadFixture("failed-check"), { replay: true });
    await press("q");
    expect(effects).toEqual([{ kind: "quit" }]);
    expect(frame()).not.toContain("Cancel the run?");
  });

  test("r rejects the approval on screen; the prompt goes away", async () => {
    const live = loadFixture("approval").filter((e) => e.type !== "run.paused" && e.type !== "run.finished");
    const { press, frame, store } = await app(live);
    const answer = store.approvals.decide({ node: "ship", prompt: "Ship it?" }, new AbortController().signal);
    store.flush();
    await settle();
    expect(frame()).toContain("? approval ship");
    await press("r");
    await expect(answer).resolves.toBe("reject");
    store.flush();
    await settle();
    expect(frame()).not.toContain("? approval ship");
  });

  test("→ on a big map lists every branch and the list scrolls with ↓", async () => {
    const { press, frame } = await app(loadFixture("big-map"), { rows: 30 });
    expect(frame()).toContain("+ 408 passed branches folded");
    await press(KEYS.right);
    expect(frame()).not.toContain("folded");
    for (let i = 0; i < 30; i++) await press(KEYS.down);
    expect(selectedRow(frame())).toMatch(/#2[0-9] /);
    expect(frame()).toMatch(/↑ \d+ more · ↓ \d+ more/);
  });
});
