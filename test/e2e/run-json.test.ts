// `dist/vouch run --json` on graphs of script nodes and checks (no model): stdout
// is NDJSON only, every line validates against the exported zod schemas, the
// stream ends in run.finished, and the process exit code is the one the event
// carries — 0 passed, 1 failed, 3 error (ERROR is never FAIL).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { join } from "node:path";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { E2E_GRAPHS, ensureBinary, parseNdjson, runsOf, tempDir, vouch, type TempDir } from "./helpers.ts";

let home: TempDir;
beforeAll(() => {
  ensureBinary();
  home = tempDir("json");
});
afterAll(() => home.cleanup());

function finishedOf(events: VouchEvent[]): Record<string, EventOf<"node.finished">> {
  const out: Record<string, EventOf<"node.finished">> = {};
  for (const e of events) if (e.type === "node.finished") out[e.node] = e;
  return out;
}

async function runJson(graph: string) {
  const r = await vouch(["run", join(E2E_GRAPHS, graph), "--json"], { home: home.path });
  const events = parseNdjson(r.stdout);
  return { ...r, events };
}

/** What every --json run must hold, whatever its outcome. */
function expectWellFormed(r: { code: number; stderr: string; events: VouchEvent[] }) {
  const { events } = r;
  expect(events.length).toBeGreaterThan(2);
  expect(events[0]!.type).toBe("run.started");
  const last = events.at(-1)!;
  expect(last.type).toBe("run.finished");
  expect(events.filter((e) => e.type === "run.finished")).toHaveLength(1);
  expect((last as EventOf<"run.finished">).exit_code).toBe(r.code);
  // One run, its sequence numbered from 0 without gaps.
  expect(new Set(events.map((e) => e.run)).size).toBe(1);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  // Human messages only on stderr, and a run that went its course has none.
  expect(r.stderr).toBe("");
  return last as EventOf<"run.finished">;
}

describe("vouch run --json on script graphs", () => {
  test("passed: exit 0, checks and state flow through, the end node's output closes the stream", async () => {
    const r = await runJson("scripts-pass.yaml");
    expect(r.code).toBe(0);
    const end = expectWellFormed(r);
    expect(end.status).toBe("passed");
    expect(end.counts).toEqual({ passed: 3, self_reported: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 });
    expect(end.output).toEqual({ answer: 42 });
    const checks = r.events.filter((e): e is EventOf<"check.finished"> => e.type === "check.finished");
    expect(checks.map((c) => [c.node, c.name, c.passed, c.expect])).toEqual([
      ["build", "has_output", true, "exit_zero"],
      ["build", "says_42", true, "exit_zero"],
      ["report", "quiet", true, "empty_output"],
    ]);
    const nodes = finishedOf(r.events);
    // A script's checks passing make it `verified`: evidence the engine gathered itself.
    expect(nodes.build).toMatchObject({ status: "passed", qualifier: "verified", output: { answer: 42 } });
    expect(nodes.report).toMatchObject({ status: "passed", qualifier: "verified" });
    expect((await runsOf(home.path)).find((x) => x.id === end.run)).toMatchObject({ status: "passed", exit_code: 0 });
  });

  test("failed: exit 1, every check ran, the failing one reported with its exit and output tail", async () => {
    const r = await runJson("scripts-fail.yaml");
    expect(r.code).toBe(1);
    const end = expectWellFormed(r);
    expect(end.status).toBe("failed");
    const checks = r.events.filter((e): e is EventOf<"check.finished"> => e.type === "check.finished");
    expect(checks.map((c) => [c.name, c.passed])).toEqual([
      ["tests", false],
      ["lint", true],
    ]);
    expect(checks[0]).toMatchObject({ exit: 1, signal: null, timed_out: false, stdout_tail: "expected 3, got 4\n" });
    const nodes = finishedOf(r.events);
    expect(nodes.build).toMatchObject({ status: "failed", cause: "check_failed", stop_reason: null });
    expect(nodes.build!.error).toContain("tests");
    expect(nodes.ship).toMatchObject({ status: "skipped", cause: "upstream_not_passed", attempt: 0 });
    expect((await runsOf(home.path)).find((x) => x.id === end.run)).toMatchObject({ status: "failed", exit_code: 1 });
  });

  test("error: a script past its timeout is killed and gives no verdict: exit 3, not 1", async () => {
    const r = await runJson("scripts-error.yaml");
    expect(r.code).toBe(3);
    const end = expectWellFormed(r);
    expect(end.status).toBe("error");
    expect(end.counts).toMatchObject({ error: 1, failed: 0, skipped: 1 });
    const nodes = finishedOf(r.events);
    expect(nodes.slow).toMatchObject({ status: "error", cause: "timeout" });
    expect(nodes.after).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect((await runsOf(home.path)).find((x) => x.id === end.run)).toMatchObject({ status: "error", exit_code: 3 });
  });

  test("the schema check is not a formality: a line with an unknown field or a bad type is refused", () => {
    const good =
      '{"v":1,"run":"r","t":"x","seq":0,"type":"run.finished","status":"passed","exit_code":0,"cost_usd":0,"cost_unknown":0,"wall_ms":1,"counts":{"passed":0,"failed":0,"error":0,"skipped":0,"cancelled":0}}\n';
    expect(parseNdjson(good)).toHaveLength(1);
    expect(() => parseNdjson(good.replace('"wall_ms":1', '"wall_ms":1,"extra":true'))).toThrow(/event schema/);
    expect(() => parseNdjson(good.replace('"exit_code":0', '"exit_code":"0"'))).toThrow(/event schema/);
    expect(() => parseNdjson(`vouch: a human line\n${good}`)).toThrow(/not JSON/);
  });
});
