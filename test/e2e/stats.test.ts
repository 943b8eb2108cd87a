// `vouch stats` through dist/vouch (ADR 0068): a ledger of runs recorded from replayed
// sittings whose claims and check outcomes are known prints exactly the expected table;
// a resumed session's sittings add to it; --since, --by and --json; the finding verifier's
// VERIFIED claims beside what its citations check found.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_ARGS, ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("stats");
}, 180_000);
afterAll(() => dir.cleanup());

/** A claude stream-json recording: `turns` assistant messages, the last one the answer, and its cost;
 *  `stop` "turns" ends at the turns cap. */
function recording(text: string, cost: number, turns: number, stop: "complete" | "turns" = "complete"): string {
  const sid = "00000000-0000-4000-8000-000000000001";
  const turn = (i: number) => ({
    type: "assistant",
    session_id: sid,
    message: {
      id: `m${i}`,
      type: "message",
      role: "assistant",
      model: "claude-opus-5",
      content: [{ type: "text", text: i === turns ? text : "working" }],
    },
  });
  const lines = [
    { type: "system", subtype: "init", session_id: sid, cwd: "/w", model: "claude-opus-5", tools: [], permissionMode: "default" },
    ...Array.from({ length: turns }, (_, i) => turn(i + 1)),
    {
      type: "result",
      subtype: stop === "turns" ? "error_max_turns" : "success",
      is_error: stop === "turns",
      num_turns: turns,
      result: text,
      session_id: sid,
      total_cost_usd: cost,
      usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

const GRAPH = `version: 1
name: claims-demo
nodes:
  honest:
    kind: agent
    prompt: do it
    success: { result_matches: "ALL TESTS PASS", checks: [{ name: tests, run: "true" }] }
  liar:
    kind: agent
    prompt: do it
    success: { result_matches: "ALL TESTS PASS", checks: [{ name: tests, run: "false" }] }
    retry: { max: 1, on: [check_failed] }
  modest:
    kind: agent
    prompt: do it
    success: { result_matches: "ALL TESTS PASS", checks: [{ name: tests, run: "true" }] }
  stopped:
    kind: agent
    prompt: do it
  unchecked:
    kind: agent
    prompt: do it
    success: { result_matches: "ALL TESTS PASS" }
`;

function writeGraph(): string {
  const replay = join(dir.path, "claims.replay");
  mkdirSync(replay, { recursive: true });
  writeFileSync(join(dir.path, "claims.yaml"), GRAPH);
  const fixtures: Record<string, string> = {
    "honest.jsonl": recording("ALL TESTS PASS", 0.1, 2),
    "liar.a1.jsonl": recording("ALL TESTS PASS", 0.2, 3),
    "liar.a2.jsonl": recording("ALL TESTS PASS, really", 0.3, 4),
    "modest.jsonl": recording("two tests still fail", 0.05, 1),
    "stopped.jsonl": recording("", 0.4, 8, "turns"),
    "unchecked.jsonl": recording("ALL TESTS PASS", 0.01, 1),
  };
  for (const [name, text] of Object.entries(fixtures)) writeFileSync(join(replay, name), text);
  return join(dir.path, "claims.yaml");
}

const table = (...rows: string[]) => `${rows.join("\n")}\n`;

describe("vouch stats over replayed runs", () => {
  test("the exact table of known claims and known check outcomes, then with a resumed session's sittings added", async () => {
    const home = join(dir.path, "home-claims");
    const graph = writeGraph();
    const first = await vouch(["run", graph, "--harness", "replay", "--plain"], { home, cwd: dir.path });
    expect(first.code).toBe(1); // liar and modest failed; stopped is an error
    const s1 = await vouch(["stats"], { home, cwd: dir.path });
    expect(s1.code).toBe(0);
    expect(s1.stdout).toBe(
      table(
        "Claims vs evidence: 6 judged agent sittings in 1 run",
        "",
        "CLAIM       EVIDENCE    SITTINGS  SHARE  COST   TURNS",
        "done        verified    1         25%    $0.10  2",
        "done        unchecked   1         25%    $0.01  1",
        "done        failed      2         50%    $0.50  7",
        "not done    failed      1         100%   $0.05  1",
        "(no claim)  no verdict  1         100%   $0.40  8",
        "",
        "What retries bought: 1 retry",
        "",
        "CAUSE         RETRIES  VERIFIED  COST   TURNS",
        "check_failed  1        0 (0%)    $0.30  4",
      ),
    );
    // The resume runs again what did not pass (liar twice, modest, stopped): their sittings count too.
    const resumed = await vouch(["resume", "last", "--plain"], { home, cwd: dir.path });
    expect(resumed.code).toBe(1);
    const s2 = await vouch(["stats", "--json"], { home, cwd: dir.path });
    const j = JSON.parse(s2.stdout);
    expect([j.runs, j.sittings]).toEqual([1, 10]);
    expect(j.claims.map((c: { claim: string | null; evidence: string; sittings: number }) => [c.claim, c.evidence, c.sittings])).toEqual([
      ["done", "verified", 1],
      ["done", "unchecked", 1],
      ["done", "failed", 4],
      ["not done", "failed", 2],
      [null, "no verdict", 2],
    ]);
    expect(j.retries).toEqual([{ group: "", cause: "check_failed", verified: 0, sittings: 2, cost_usd: 0.6, cost_unknown: 0, turns: 8 }]);
    // The property through the binary: the cells add up to the judged sittings.
    expect(j.claims.reduce((n: number, c: { sittings: number }) => n + c.sittings, 0)).toBe(j.sittings);
  });

  test("--since in the future finds nothing; --by harness; a bad --since or --by is a usage error", async () => {
    const home = join(dir.path, "home-claims");
    const none = await vouch(["stats", "--since", "2999-01-01"], { home, cwd: dir.path });
    expect(none.stdout).toMatch(/^no judged sittings recorded in .* since 2999-01-01T00:00:00.000Z\n$/);
    const by = await vouch(["stats", "--by", "harness"], { home, cwd: dir.path });
    expect(by.stdout).toContain("GROUP   CLAIM       EVIDENCE    SITTINGS");
    expect(by.stdout).toMatch(/\nreplay  done        verified    1 /);
    for (const [flag, value] of [
      ["--since", "last tuesday"],
      ["--by", "colour"],
    ]) {
      const bad = await vouch(["stats", flag!, value!], { home, cwd: dir.path });
      expect([bad.code, bad.stdout]).toEqual([2, ""]);
      expect(bad.stderr).toContain(`${flag} takes`);
    }
  });

  test("the finding verifier: how often the model's VERIFIED held against the citations check, and in its report", async () => {
    const home = join(dir.path, "home-fv");
    expect((await vouch(["run", ...DEMO_ARGS, "--plain"], { home })).code).toBe(0);
    const s = await vouch(["stats", "--by", "node"], { home });
    expect(s.stdout).toContain("finding-verifier: verify_each[].verify_one  VERIFIED      verified    2         67%");
    expect(s.stdout).toContain("finding-verifier: verify_each[].verify_one  VERIFIED      failed      1         33%");
    const page = await vouch(["report", "last"], { home });
    expect(page.stdout).toContain("<h2>Claims vs evidence</h2>");
    expect(page.stdout).toContain("<tr><td>VERIFIED</td><td>failed</td><td>1</td><td>33%</td>");
    expect(page.stdout).toContain("<h2>What retries bought</h2>");
    expect(page.stdout).toMatch(/history: 4 pass · 1 fail · 0 flaky in the last 1 run</);
  });
});
