// The screen as lines (selectFrame): what a person sees for each recorded run,
// and that it always fits the terminal it is given.
import { describe, expect, test } from "vitest";
import { verdictText, failureTail } from "../../src/tui/format.ts";
import { overrunText } from "../../src/read/cap-text.ts";
import { usd } from "../../src/text/money.ts";
import { lineText } from "../../src/tui/lines.ts";
import { displayWidth, truncate } from "../../src/text/width.ts";
import { sanitize } from "../../src/text/sanitize.ts";
import { reduce, reduceAll, selectDetails, selectFrame, type FrameOptions } from "../../src/tui/view-model.ts";
import { loadFixture } from "./helpers/fake-terminal.ts";

const FIXTURES = ["map-mixed", "failed-check", "overruns", "approval", "retry-fallback", "big-map"];
const NOW = Date.parse("2026-11-29T10:00:40.000Z");

function screen(name: string, o: Partial<FrameOptions> = {}) {
  const f = selectFrame(reduceAll(loadFixture(name)), { width: 100, height: 60, now: NOW, ...o });
  return { ...f, text: f.lines.map(lineText) };
}

describe("every frame fits its terminal", () => {
  for (const width of [40, 80, 120]) {
    for (const height of [12, 24, 50]) {
      test.each(FIXTURES)(`%s at ${width}x${height}: no line wider than the width, no more lines than the height`, (name) => {
        const { text } = screen(name, { width, height });
        expect(Math.max(...text.map(displayWidth))).toBeLessThanOrEqual(width);
        expect(text.length).toBeLessThanOrEqual(height);
      });
    }
  }

  test("details of every node fit 80 columns too (long text wraps instead)", () => {
    const s = reduceAll(loadFixture("failed-check"));
    const lines = selectDetails(s, "fix", { now: NOW, width: 80 }).map(lineText);
    expect(Math.max(...lines.map(displayWidth))).toBeLessThanOrEqual(80);
  });
});

describe("what the frames show", () => {
  test("a map of 6 branches: one row per branch with its verdict", () => {
    const { text } = screen("map-mixed", { width: 80 });
    const row = (label: string) => text.find((l) => l.includes(label)) ?? "";
    expect(row("F-001")).toMatch(/✓ #0 F-001 null deref in parse_header\s+VERIFIED$/);
    expect(row("F-002")).toMatch(/✓ #1 .*\s+FALSE$/);
    expect(row("F-003")).toMatch(/✓ #2 .*\s+UNVERIFIABLE$/);
    expect(row("F-005")).toMatch(/! #4 .*\s+ERROR$/);
    expect(row("F-006")).toMatch(/✗ #5 .*\s+FAILED$/);
    expect(text.join("\n")).toContain("2 VERIFIED · 1 FALSE · 1 UNVERIFIABLE · 1 ERROR · 1 FAILED");
    expect(text.join("\n")).toContain("verify_each  map      failed map_failed  6/6");
  });

  test("a failed check shows ✗, why, and the last lines of its output; a passed one shows ✓", () => {
    const { text } = screen("failed-check", { width: 80 });
    const all = text.join("\n");
    expect(all).toContain("✗ tests  exit 1 · expect exit_zero");
    expect(all).toContain("│   Expected: 3");
    expect(all).toContain("│   Received: 4");
    expect(all).toContain('│ error: script "test" exited with code 1');
    expect(all).toContain("✓ lint  880ms");
    expect(all).not.toContain("bun test v1.4.4"); // the tail is the last lines, not the whole output
  });

  test("cap overruns stand out with actual over limit", () => {
    const all = screen("overruns", { width: 80 }).text.join("\n");
    expect(all).toContain("⚠ cap overrun turns 2/1");
    expect(all).toContain("⚠ cap overrun budget_usd $0.0047/$0.001");
    expect(all).toContain("⚠ cap overrun wall 12s/10s");
    expect(all).toContain("error cap_stop (turns)");
  });

  test("retries and the fallback are marked on the node", () => {
    const all = screen("retry-fallback").text.join("\n");
    expect(all).toContain("↻ attempt 1 output_invalid: output is not JSON");
    expect(all).toContain("→ fallback parse_fault");
    expect(all).toContain("↻ 2 attempts");
  });

  test("a retry row shows the one-line error; the details keep the whole quoted message", () => {
    const events = loadFixture("retry-fallback").map((e) =>
      e.type === "node.retrying"
        ? {
            ...e,
            reason: "Your previous attempt (attempt 1) did not pass. vouch checked it and found: ...",
            error: "output is not JSON: Unexpected token 'H'",
          }
        : e,
    );
    const s = reduceAll(events);
    const all = selectFrame(s, { width: 100, height: 60, now: NOW }).lines.map(lineText).join("\n");
    expect(all).toContain("↻ attempt 1 output_invalid: output is not JSON: Unexpected token 'H'");
    expect(all).not.toContain("Your previous attempt");
    expect(selectDetails(s, "parse", { now: NOW, width: 200 }).map(lineText).join("\n")).toContain(
      "Your previous attempt (attempt 1) did not pass.",
    );
  });

  test("a paused approval says how to resume", () => {
    const all = screen("approval").text.join("\n");
    expect(all).toContain("PAUSED · exit 4");
    expect(all).toContain("? paused at approval ship");
    expect(all).toContain("vouch resume 01JDX4T7Q9M2K8V3H6N5R0B1CZ --approve ship");
  });

  test("an approval being asked shows its prompt and the a/r keys", () => {
    const events = loadFixture("approval").filter((e) => e.type !== "run.paused" && e.type !== "run.finished");
    const f = selectFrame(reduceAll(events), {
      width: 80,
      height: 30,
      now: NOW,
      approvals: [{ id: 1, node: "ship", prompt: "Ship v2.3.0 to production?\nThe canary is green." }],
    });
    const all = f.lines.map(lineText).join("\n");
    expect(all).toContain("? approval ship");
    expect(all).toContain("│ Ship v2.3.0 to production?");
    expect(all).toContain("a approve   r reject");
    expect(all).toContain("a approve · r reject · q quit");
  });

  test("an approval asked without a message shows the one its node.started carried", () => {
    const events = loadFixture("approval").filter((e) => e.type !== "run.paused" && e.type !== "run.finished");
    const f = selectFrame(reduceAll(events), { width: 80, height: 30, now: NOW, approvals: [{ id: 1, node: "ship" }] });
    expect(f.lines.map(lineText).join("\n")).toContain("│ Ship v2.3.0 to production?");
  });

  test("a big map folds the finished branches that passed and keeps the rest listed", () => {
    const auto = screen("big-map", { height: 200 }).text;
    expect(auto.join("\n")).toContain("verify_each  map      running  412/500");
    expect(auto.join("\n")).toContain("+ 408 passed branches folded");
    expect(auto.filter((l) => / #\d+ /.test(l))).toHaveLength(8); // 4 errors + 4 running
    const open = screen("big-map", { height: 1000, fold: { verify_each: "open" } }).text;
    expect(open.filter((l) => / #\d+ /.test(l))).toHaveLength(416);
    const closed = screen("big-map", { height: 200, fold: { verify_each: "closed" } }).text;
    expect(closed.filter((l) => / #\d+ /.test(l))).toHaveLength(0);
    expect(closed.join("\n")).toContain("+ 416 branches folded");
  });

  test("a replay is frozen at its last event; a live run counts on the wall clock", () => {
    const later = Date.parse("2026-11-29T12:00:00.000Z");
    const replay = screen("big-map", { now: later, replay: true }).text;
    expect(replay[0]).toContain("unfinished  2m45s");
    expect(replay.find((l) => l.includes("verify_each  map"))).toMatch(/412\/500  2m45s$/);
    const live = screen("big-map", { now: later }).text;
    expect(live[0]).toContain("running  2h");
  });

  test("scrolling keeps the selected row on screen and says what is above and below", () => {
    const f = screen("big-map", { height: 20, fold: { verify_each: "open" }, selected: "verify_each#300" });
    expect(f.text.some((l) => l.startsWith("›") && l.includes("#300 "))).toBe(true);
    expect(f.text.join("\n")).toMatch(/↑ \d+ more · ↓ \d+ more/);
    expect(f.selectable).toContain("verify_each#300");
  });

  test("details show every attempt, checks with whole tails, evidence, prompt and result", () => {
    const lines = selectDetails(reduceAll(loadFixture("failed-check")), "fix", { now: NOW, width: 100 })
      .map(lineText)
      .join("\n");
    expect(lines).toContain("#1 failed");
    expect(lines).toContain("✗ tests");
    expect(lines).toContain("bun test v1.4.4"); // the whole tail, not the last lines
    expect(lines).toContain(
      "evidence    exit_zero passed · output not_applicable · result_matches passed (self-reported) ·\n            checks failed (tests)",
    );
    expect(lines).toContain("✗ tests  exit 1 · expect exit_zero · 2.3s");
    expect(lines).toContain("tokens      in 1200 · out 310 · cache read 20000");
    expect(lines).toContain("Fix the failing addition test");
    expect(lines).toContain("PASS: fixed the addition in src/math.ts");
  });

  test("branch details list the branch's nodes with their attempts", () => {
    const lines = selectDetails(reduceAll(loadFixture("map-mixed")), "verify_each#2", { now: NOW, width: 100 })
      .map(lineText)
      .join("\n");
    expect(lines).toContain("verify_each[2]  F-003 leaked fd in open_log");
    expect(lines).toContain("verdict     UNVERIFIABLE");
    expect(lines).toContain("#1 retrying");
    expect(lines).toContain("#2 passed");
  });
});

describe("formatting", () => {
  test("dollars keep the precision small amounts need", () => {
    expect([5, 0.42, 0.0121, 0.00472475, 0.001, 0].map(usd)).toEqual(["$5.00", "$0.42", "$0.012", "$0.0047", "$0.001", "$0"]);
  });
  test("overruns read actual/limit in the cap's unit", () => {
    expect(overrunText({ cap: "turns", limit: 1, actual: 2 })).toBe("turns 2/1");
    expect(overrunText({ cap: "budget_usd", limit: 0.001, actual: 0.00472475 })).toBe("budget_usd $0.0047/$0.001");
    expect(overrunText({ cap: "wall", limit: 10_000, actual: 12_000 })).toBe("wall 12s/10s");
    expect(overrunText({ cap: "idle", limit: 60_000, actual: 90_000 })).toBe("idle 1m30s/1m");
  });
  test("verdicts: strings upper-cased, none → the status, other values as JSON", () => {
    expect(verdictText("verified", "passed")).toBe("VERIFIED");
    expect(verdictText(null, "error")).toBe("ERROR");
    expect(verdictText(true, "passed")).toBe("TRUE");
    expect(verdictText({ a: 1 }, "passed")).toBe('{"a":1}');
  });
  test("a failure tail keeps the last lines of both streams", () => {
    expect(failureTail({ stdout_tail: "1\n2\n3\n4\n5\n6\n", stderr_tail: "" }, 4)).toEqual(["3", "4", "5", "6"]);
    expect(failureTail({ stdout_tail: "a\nb\nc\n", stderr_tail: "x\ny\nz\n" }, 4)).toEqual(["b", "c", "y", "z"]);
    expect(failureTail({ stdout_tail: "a\n", stderr_tail: "x\ny\nz\nw\n" }, 4)).toEqual(["a", "y", "z", "w"]);
  });
  test("text from outside loses its escape sequences; truncation counts wide characters", () => {
    expect(sanitize("ok\u001b[2J\u001b[31mred\u001b[0m\u0007 \u001b]0;title\u0007done")).toBe("okred done");
    expect(truncate("日本語のテキスト", 7)).toBe("日本語…");
    expect(displayWidth(truncate("日本語のテキスト", 7))).toBeLessThanOrEqual(7);
  });
  test("a label with escape codes cannot reach the screen", () => {
    const events = loadFixture("map-mixed");
    const evil = events.map((e) => (e.type === "branch.started" && e.branch.index === 0 ? { ...e, label: "\u001b[2J\u001b[Hpwned" } : e));
    const text = selectFrame(reduceAll(evil), { width: 80, height: 40, now: NOW }).lines.map(lineText).join("\n");
    expect(text).toContain("#0 pwned");
    expect(text).not.toContain("\u001b");
  });
  test("header cost turns red past the run budget (tone bad)", () => {
    let s = reduceAll(loadFixture("overruns").slice(0, 1));
    s = reduce(s, {
      v: 1,
      run: "r",
      t: "2026-11-29T10:00:01Z",
      seq: 1,
      type: "node.progress",
      node: "summarize",
      attempt: 1,
      cost_usd: 1.5,
    });
    const head = selectFrame(s, { width: 80, height: 20, now: NOW }).lines[0]!;
    expect(head.segments.find((x) => x.text.includes("$1.50 / $1.00"))?.tone).toBe("bad");
  });
});
