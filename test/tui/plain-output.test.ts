// The plain writer: one line per significant event, within the width, colour only when asked.
import { describe, expect, test } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { displayWidth } from "../../src/text/width.ts";
import { loadFixture } from "./helpers/fake-terminal.ts";
import { RunRecorder, ZERO } from "./helpers/event-builder.ts";

const FIXTURES = ["map-mixed", "failed-check", "overruns", "approval", "retry-fallback", "big-map"];

async function plain(events: VouchEvent[], opts = { color: false, width: 200 }): Promise<string[]> {
  let text = "";
  const out = createPlainOutput((t) => (text += t), opts);
  for (const e of events) out.push(e);
  await out.close();
  return text.split("\n").slice(0, -1);
}

describe("plain lines", () => {
  test("a map run: node lines, a line per branch with its verdict, the retry, the overrun, the end", async () => {
    const lines = await plain(loadFixture("map-mixed"));
    expect(lines).toEqual([
      "▶ finding-verifier  run 01JDX4T7Q9M2K8V3H6N5R0B1CZ started",
      "  3 nodes · budget $5.00 · wall 45m",
      "✓ parse passed exit-only  $0.012 · 2 turns · 4.2s",
      "✓ verify_each[0] F-001 null deref in parse_header  VERIFIED",
      "✓ verify_each[1] F-002 off-by-one in ring buffer  FALSE",
      "↻ verify_each[2].verify_one attempt 1 output_invalid, retrying: output does not match schema: /verdict must be one of VERIFIED, FALSE, UNVERIFIABLE",
      "✓ verify_each[2] F-003 leaked fd in open_log  UNVERIFIABLE",
      "✓ verify_each[3] F-004 race on cache map  VERIFIED",
      "⚠ verify_each[4].verify_one cap overrun turns 2/1",
      "! verify_each[4].verify_one error cap_stop (turns)  $0.0093 · 2 turns · 9s",
      "    why: the sitting stopped at its turns cap (2 of 1)",
      "! verify_each[4] F-005 unchecked malloc  ERROR",
      "✗ verify_each[5].verify_one failed output_invalid  $0.012 · 2 turns · 5s",
      "    error: output is not JSON: Unexpected token 'I'",
      "✗ verify_each[5] F-006 SQL built from input  FAILED",
      "✗ verify_each failed map_failed  30s",
      "    error: 1 branch failed, 1 error",
      "- done skipped upstream_not_passed",
      "■ run failed · exit 1  $0.153 · 38s",
      "  5 passed · 2 failed · 1 error · 1 skipped",
    ]);
  });

  test("a failed check prints its tail indented under it; passing checks and progress print nothing", async () => {
    const lines = await plain(loadFixture("failed-check"));
    const at = lines.indexOf("✗ fix check tests failed: exit 1 · expect exit_zero");
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 6)).toEqual([
      "    │   Expected: 3",
      "    │   Received: 4",
      "    │  1 fail",
      "    │  4 pass",
      '    │ error: script "test" exited with code 1',
    ]);
    expect(lines.join("\n")).not.toMatch(/lint|Edit src\/math\.ts/);
  });

  test("a pause says how to resume", async () => {
    const lines = await plain(loadFixture("approval"));
    expect(lines).toContain("? paused at approval ship");
    expect(lines).toContain("    vouch resume 01JDX4T7Q9M2K8V3H6N5R0B1CZ --approve ship  (or --reject ship)");
    expect(lines).toContain("■ run paused · exit 4  $0 · 4.6s");
  });

  test("a retry, its backoff, and the fallback", async () => {
    const lines = await plain(loadFixture("retry-fallback"));
    expect(lines).toContain("↻ parse attempt 1 output_invalid, retrying in 2s: output is not JSON: Unexpected token 'H'");
    expect(lines).toContain("✗ parse failed output_invalid  $0.013 · 1 turn · 7s  ↻ 2 attempts  → fallback parse_fault");
  });

  test("one script node: '1 node', and no '$0' on a script (it cannot cost anything)", async () => {
    const r = new RunRecorder();
    r.emit({
      type: "run.started",
      graph: "checks",
      graph_path: "c.yaml",
      graph_digest: "d",
      inputs: {},
      caps: { budget_usd: null, wall_ms: null },
      concurrency: 1,
      nodes: [{ id: "build", kind: "script", needs: [] }],
      pass_env: [],
      harness: null,
      resumed: false,
      version: "0",
    });
    r.emit({ type: "node.started", node: "build", kind: "script", attempt: 1 });
    r.emit({
      type: "node.finished",
      node: "build",
      attempt: 1,
      status: "passed",
      qualifier: "verified",
      stop_reason: null,
      cause: null,
      cost_usd: 0,
      turns: null,
      wall_ms: 157,
    });
    r.emit({
      type: "run.finished",
      status: "passed",
      exit_code: 0,
      cost_usd: 0,
      cost_unknown: 0,
      wall_ms: 165,
      counts: { ...ZERO, passed: 1 },
    });
    expect((await plain(r.events)).slice(1)).toEqual([
      "  1 node",
      "✓ build passed verified  157ms",
      "■ run passed · exit 0  $0 · 165ms",
      "  1 passed",
    ]);
  });

  test("a retry shows its one-line error, not the whole message quoted to the model", async () => {
    const events = loadFixture("retry-fallback").map((e) =>
      e.type === "node.retrying"
        ? {
            ...e,
            reason:
              "Your previous attempt (attempt 1) did not pass. vouch checked it and found:\ncause: output_invalid\nerror: output is not JSON: Unexpected token 'H'\nFix this and answer again.",
            error: "output is not JSON: Unexpected token 'H'",
          }
        : e,
    );
    const lines = await plain(events);
    expect(lines).toContain("↻ parse attempt 1 output_invalid, retrying in 2s: output is not JSON: Unexpected token 'H'");
    expect(lines.join("\n")).not.toContain("Your previous attempt");
  });

  test.each(FIXTURES)("%s at 80 columns: no line is longer than 80", async (name) => {
    const lines = await plain(loadFixture(name), { color: false, width: 80 });
    expect(lines.length).toBeGreaterThan(0);
    const long = lines.filter((l) => displayWidth(l) > 80);
    expect(long).toEqual([]);
    // The long retry reason of map-mixed is cut, with the ellipsis saying so.
    if (name === "map-mixed") expect(lines.filter((l) => l.endsWith("…"))).toHaveLength(1);
  });

  test("NO_COLOR (color: false): no escape codes at all, even from hostile output", async () => {
    const events = loadFixture("failed-check").map((e) =>
      e.type === "check.finished" && !e.passed ? { ...e, stdout_tail: "\u001b[31mFAIL\u001b[0m\n\u001b]0;pwned\u0007x" } : e,
    );
    const text = (await plain(events, { color: false, width: 80 })).join("\n");
    expect(text).not.toContain("\u001b");
    expect(text).toContain("│ FAIL");
  });

  test("color: true paints statuses (so the NO_COLOR test above can fail)", async () => {
    const text = (await plain(loadFixture("failed-check"), { color: true, width: 80 })).join("\n");
    expect(text).toContain("\u001b[31m✗ \u001b[0m".replace("31m", "31;1m"));
  });

  test("a reader that went away (EPIPE) ends the output quietly; other write errors surface", async () => {
    let calls = 0;
    const out = createPlainOutput(
      () => {
        calls++;
        throw Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
      },
      { color: false, width: 80 },
    );
    for (const e of loadFixture("map-mixed")) out.push(e);
    expect(calls).toBe(1);
    const broken = createPlainOutput(
      () => {
        throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
      },
      { color: false, width: 80 },
    );
    expect(() => broken.push(loadFixture("map-mixed")[0]!)).toThrow("disk full");
  });

  test("a destroyed or ended stream ends the output quietly too, as it does for --json", () => {
    for (const code of ["ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]) {
      let calls = 0;
      const out = createPlainOutput(
        () => {
          calls++;
          throw Object.assign(new Error(`write: ${code}`), { code });
        },
        { color: false, width: 80 },
      );
      for (const e of loadFixture("map-mixed")) out.push(e);
      expect(calls, code).toBe(1);
    }
  });
});
