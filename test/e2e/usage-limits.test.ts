// Usage limits through the real binary (issue 16, ADR 0022): the replay
// harness plays the real claude's "You've hit your 5-hour limit" output (its
// reset moved to the future), so the run ends paused (exit 4) with resets_at;
// `vouch show` says so; `vouch resume` runs only the held node again;
// --wait-limits waits in process and goes on; the flags are in the help.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { ensureBinary, parseNdjson, ROOT, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
let graph: string;
let fixtures: string;
const LIMITED = readFileSync(join(ROOT, "test", "fixtures", "limits", "claude", "five-hour-utc.jsonl"), "utf8");
const SUCCESS = join(ROOT, "test", "fixtures", "claude-real", "success.jsonl");

/** The recorded limit with its reset moved to `resetsAt` (epoch s): the recording's is in the past by now. */
function limitedUntil(resetsAt: number): string {
  return LIMITED.replaceAll("1796137200", String(resetsAt));
}

beforeAll(() => {
  ensureBinary();
  dir = tempDir("usage-limits");
  fixtures = join(dir.path, "fixtures");
  mkdirSync(fixtures);
  graph = join(dir.path, "limits.yaml");
  writeFileSync(
    graph,
    `version: 1\nname: limits\nnodes:\n  write: { kind: agent, prompt: "write" }\n  other: { kind: script, run: "echo other" }\n`,
  );
});
afterAll(() => dir.cleanup());

const args = (...more: string[]) => ["run", graph, "--harness", "replay", "--replay-dir", fixtures, "--json", ...more];
const of = <T extends VouchEvent["type"]>(events: VouchEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

test("a usage limit ends the run paused (exit 4) with resets_at; show says so; resume runs only the held node", async () => {
  const home = join(dir.path, "home-pause");
  const reset = Math.floor(Date.now() / 1000) + 3 * 3600;
  writeFileSync(join(fixtures, "write.jsonl"), limitedUntil(reset));
  const r = await vouch(args(), { home });
  expect(r.code, r.stderr).toBe(4);
  const events = parseNdjson(r.stdout);
  const iso = new Date(reset * 1000).toISOString();
  expect(of(events, "node.limited")).toEqual([expect.objectContaining({ node: "write", attempt: 1, harness: "replay", resets_at: iso })]);
  expect(of(events, "run.paused")[0]).toMatchObject({ reason: "rate_limited", harness: "replay", resets_at: iso });
  expect(of(events, "run.finished")[0]).toMatchObject({ status: "paused", exit_code: 4, reason: "rate_limited" });
  expect(of(events, "node.finished").map((e) => e.node)).toEqual(["other"]);
  // Issue 27 item 18 (test first: the held node was in no count, 1 of 2 nodes accounted for).
  expect(of(events, "run.finished")[0]!.counts).toEqual({
    passed: 1,
    self_reported: 0,
    failed: 0,
    error: 0,
    skipped: 0,
    cancelled: 0,
    paused: 1,
  });

  const hm = `${String(new Date(reset * 1000).getUTCHours()).padStart(2, "0")}:${String(new Date(reset * 1000).getUTCMinutes()).padStart(2, "0")} UTC`;
  const show = await vouch(["show", "last"], { home });
  expect(show.code, show.stderr).toBe(0);
  expect(show.stdout).toContain(`paused: replay usage limit, resets `);
  expect(show.stdout).toContain(hm);
  expect(show.stdout).toMatch(/held: write/);
  expect(show.stdout).toContain("0 cancelled, 1 paused");

  // The limit has lifted: resume plays the success; `other` passed and is not run again.
  copyFileSync(SUCCESS, join(fixtures, "write.jsonl"));
  const again = await vouch(["resume", "last", "--replay-dir", fixtures, "--json"], { home });
  expect(again.code, again.stderr).toBe(0);
  const later = parseNdjson(again.stdout);
  expect(of(later, "node.started").map((e) => e.node)).toEqual(["write"]);
  expect(of(later, "run.finished")[0]).toMatchObject({ status: "passed", counts: { passed: 2 } });
});

test("--wait-limits waits in the same process for the reset, then the held node goes on (its next attempt)", async () => {
  const home = join(dir.path, "home-wait");
  const reset = Math.floor(Date.now() / 1000) + 2;
  writeFileSync(join(fixtures, "write.jsonl"), limitedUntil(reset));
  copyFileSync(SUCCESS, join(fixtures, "write.a2.jsonl"));
  const r = await vouch(args("--wait-limits", "--max-wait", "1m"), { home });
  expect(r.code, r.stderr).toBe(0);
  const events = parseNdjson(r.stdout);
  const waiting = of(events, "run.waiting");
  expect(waiting).toHaveLength(1);
  expect(waiting[0]).toMatchObject({ reason: "rate_limited", harness: "replay", resets_at: new Date(reset * 1000).toISOString() });
  const write = of(events, "node.finished").find((e) => e.node === "write")!;
  expect([write.status, write.attempt]).toEqual(["passed", 2]);
  // The second sitting started only once the wait was over.
  const second = of(events, "node.started").find((e) => e.node === "write" && e.attempt === 2)!;
  expect(Date.parse(second.t)).toBeGreaterThanOrEqual(Date.parse(waiting[0]!.until));
});

test("a reset further off than --max-wait is not waited for: paused, exit 4", async () => {
  const home = join(dir.path, "home-max");
  writeFileSync(join(fixtures, "write.jsonl"), limitedUntil(Math.floor(Date.now() / 1000) + 3 * 3600));
  const r = await vouch(args("--wait-limits", "--max-wait", "10m"), { home });
  expect(r.code, r.stderr).toBe(4);
  expect(of(parseNdjson(r.stdout), "run.waiting")).toEqual([]);
});

test("help names the flags and exit 4 for a limit; --max-wait without --wait-limits is a usage error (exit 2)", async () => {
  const home = join(dir.path, "home-help");
  const help = await vouch(["run", "--help"], { home });
  expect(help.stdout).toContain("--wait-limits");
  expect(help.stdout).toContain("--max-wait DURATION");
  const resumeHelp = await vouch(["resume", "--help"], { home });
  expect(resumeHelp.stdout).toContain("--wait-limits");
  const main = await vouch(["--help"], { home });
  expect(main.stdout).toContain("4 paused (at an approval, or at a usage or rate limit)");
  const bad = await vouch(["run", graph, "--max-wait", "5h"], { home });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--max-wait only bounds --wait-limits");
  const badValue = await vouch(["run", graph, "--wait-limits", "--max-wait=soon"], { home });
  expect(badValue.code).toBe(2);
  expect(badValue.stderr).toContain("--max-wait takes a duration");
});
