// The live UI draws text from outside (the graph's name, node ids, branch
// labels, model output) without its control characters: Ink frames of a
// recorded run whose every such text is hostile hold none (issue 12, item 14).
import { afterEach, expect, test } from "vitest";
import { cleanup, render } from "ink-testing-library";
import type { VouchEvent } from "../../src/engine/events.ts";
import { AppView } from "../../src/tui/ink/app-view.tsx";
import { createTuiStore } from "../../src/tui/tui-store.ts";
import { loadFixture, settle } from "./helpers/fake-terminal.ts";

afterEach(() => cleanup());

const HOSTILE = "n\u0000u\u0007l\u001b[31mred\u001b[2J\u001b]0;title\u0007\u009b1m\u202eevil\u2028end";
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** Every string in the events (but the envelope and the ids the UI keys on) made hostile. */
function hostile(events: VouchEvent[]): VouchEvent[] {
  return events.map((e) => {
    if (e.type === "run.started") return { ...e, graph: HOSTILE } as VouchEvent;
    if ("label" in e && typeof e.label === "string") return { ...e, label: `${e.label}${HOSTILE}` } as VouchEvent;
    if ("error" in e && typeof e.error === "string") return { ...e, error: `${e.error}${HOSTILE}` } as VouchEvent;
    return e;
  });
}

test.each(["map-mixed", "failed-check", "retry-fallback"])(
  "%s with hostile text: no control character in the frame, the name's printable rest shown",
  async (fixture) => {
    const store = createTuiStore();
    for (const e of hostile(loadFixture(fixture))) store.push(e);
    store.flush();
    const r = render(<AppView store={store} color={false} replay={true} onEffect={() => {}} size={{ columns: 120, rows: 50 }} />);
    await settle();
    const frame = r.lastFrame() ?? "";
    expect(FORBIDDEN.exec(frame)?.[0]).toBeUndefined();
    expect(frame).toContain("nulredevilend");
  },
);
