// NO_COLOR: with color off the Ink frame has no escape codes at all. Colour is
// forced on for this file (chalk reads FORCE_COLOR when it loads), so the
// colour-on case proves the test would notice escapes.
import { afterEach, describe, expect, test } from "vitest";
import type { TuiStore } from "../../src/tui/tui-store.ts";
import { loadFixture, settle } from "./helpers/fake-terminal.ts";

process.env.FORCE_COLOR = "1";
const { render, cleanup } = await import("ink-testing-library");
const { AppView } = await import("../../src/tui/ink/app-view.tsx");
const { createTuiStore } = await import("../../src/tui/tui-store.ts");
delete process.env.FORCE_COLOR; // chalk has read it; keep it from other suites sharing this process

afterEach(() => cleanup());

async function frame(color: boolean): Promise<string> {
  const store: TuiStore = createTuiStore();
  for (const e of loadFixture("map-mixed")) store.push(e);
  store.flush();
  const r = render(<AppView store={store} color={color} replay={false} onEffect={() => {}} size={{ columns: 80, rows: 40 }} />);
  await settle();
  return r.lastFrame() ?? "";
}

describe("colour", () => {
  test("color: false (NO_COLOR, or not a colour terminal): no escape codes in the frame", async () => {
    const text = await frame(false);
    expect(text).toContain("VERIFIED");
    expect(text).not.toContain("\u001b");
  });

  test("color: true: statuses are painted (failed red, error yellow, passed green)", async () => {
    const text = await frame(true);
    expect(text).toContain("\u001b[31m"); // red
    expect(text).toContain("\u001b[33m"); // yellow
    expect(text).toContain("\u001b[32m"); // green
  });
});
