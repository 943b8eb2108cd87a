// Harness faults through the real binary: one claude agent node played by the
// stub (test/stubs/harness/) in each way a real harness breaks. After each:
// the exit code of docs/architecture.md §5, the node's status and cause in `vouch show
// --json` (ERROR — no verdict — is never FAIL), a sound ledger, and no live
// process in any process group the stub recorded.
import { describe, test } from "vitest";
import { agentGraph, FaultCase } from "./fault-run.ts";

interface Case {
  name: string;
  graph: string;
  stub: Record<string, string>;
  exit: number;
  status: string;
  stop: string;
  cause: string | null;
  /** A piece of the node's error message that names what happened. */
  says?: RegExp;
  /** Processes the stub starts (itself, plus a grandchild). */
  processes?: number;
}

const CASES: Case[] = [
  {
    name: "crashes mid-stream (a line cut in half, exit 1)",
    graph: agentGraph(),
    stub: { STUB_SCENARIO: "cut" },
    exit: 3,
    status: "error",
    stop: "crashed",
    cause: "harness_error",
    says: /no result event \(exit 1\): stub: connection reset by peer/,
  },
  {
    name: "prints garbage and exits 0",
    graph: agentGraph(),
    stub: { STUB_SCENARIO: "garbage" },
    exit: 3,
    status: "error",
    stop: "crashed",
    cause: "harness_error",
    says: /2 line\(s\) were not JSON/,
  },
  {
    name: "stops printing without exiting (idle cap 1s)",
    graph: agentGraph("{ idle: 1s, wall: 20s }"),
    stub: { STUB_SCENARIO: "hang" },
    exit: 3,
    status: "error",
    stop: "idle",
    cause: "cap_stop",
    says: /idle cap: no progress for 1000 ms \(its reconnect and retry notices do not count\); process group killed/,
  },
  {
    name: "exit 1 with error_max_turns",
    graph: agentGraph("{ turns: 2, wall: 20s }"),
    stub: { STUB_TURNS: "5", STUB_TURN_MS: "5" },
    exit: 3,
    status: "error",
    stop: "turns",
    cause: "cap_stop",
    says: /Reached maximum number of turns \(2\)/,
  },
  {
    name: "exit 1 with error_max_budget_usd",
    graph: agentGraph("{ budget_usd: 0.02, wall: 20s }"),
    stub: { STUB_TURNS: "5", STUB_TURN_MS: "5", STUB_TURN_COST: "0.015" },
    exit: 3,
    status: "error",
    stop: "budget",
    cause: "cap_stop",
    says: /Reached maximum budget/,
  },
  {
    name: "exit 1 with error_during_execution",
    graph: agentGraph(),
    stub: { STUB_SCENARIO: "exec_error" },
    exit: 3,
    status: "error",
    stop: "crashed",
    cause: "harness_error",
    says: /failed during execution: stub: the tool runtime broke/,
  },
  // A 429 is a usage limit (issue 16, ADR 0022): the node is held and the run pauses, exit 4.
  {
    name: "reports success with is_error: true (an API 429), exit 0",
    graph: agentGraph(),
    stub: { STUB_SCENARIO: "api_error" },
    exit: 4,
    status: "waiting",
    stop: "rate_limited",
    cause: null,
    says: /claude hit a usage or rate limit/,
  },
  {
    name: "forks a grandchild that holds the pipe, then succeeds",
    graph: agentGraph(),
    stub: { STUB_SCENARIO: "grandchild" },
    exit: 0,
    status: "passed",
    stop: "complete",
    cause: null,
    processes: 2,
  },
  {
    name: "ignores SIGTERM past its wall cap (SIGKILL after the 2 s grace)",
    graph: agentGraph("{ wall: 1s }"),
    stub: { STUB_SCENARIO: "hang", STUB_IGNORE_TERM: "1" },
    exit: 3,
    status: "error",
    stop: "wall",
    cause: "cap_stop",
    says: /wall cap \(1000 ms\); process group killed/,
  },
  // The contrast: the harness completed and the evidence says no — FAIL, exit 1.
  {
    name: "succeeds but its check fails (FAIL, not ERROR)",
    graph: agentGraph("{ wall: 20s }", '    success: { checks: [{ name: tests, run: "echo 2 failing; exit 1" }] }\n'),
    stub: {},
    exit: 1,
    status: "failed",
    stop: "complete",
    cause: "check_failed",
    says: /1 of 1 check failed: tests \(exit 1, expected 0\)/,
  },
];

describe.concurrent("a claude sitting that", () => {
  for (const c of CASES) {
    test(c.name, async ({ expect }) => {
      const f = new FaultCase(c.graph, c.stub);
      try {
        const started = performance.now();
        const r = await f.run();
        const ms = Math.round(performance.now() - started);
        expect(r.code, r.stderr).toBe(c.exit);
        expect(r.stderr).not.toMatch(/^\s+at /m); // no stack trace
        const shown = await f.show();
        const node = shown.nodes.find((n) => n.node === "work");
        expect(node).toMatchObject({ status: c.status, stop_reason: c.stop, cause: c.cause });
        if (c.says) expect(node!.error).toMatch(c.says);
        expect(shown.run).toMatchObject({ exit_code: c.exit, sessions: 1 });
        expect(f.integrity()).toBe("ok");
        // The stub really ran (its group existed), and nothing of it is left.
        expect(f.recorded()).toHaveLength(c.processes ?? 1);
        expect(await f.liveGroups()).toEqual([]);
        console.log(`[faults] ${c.name}: exit ${r.code} in ${ms} ms`);
      } finally {
        f.cleanup();
      }
    });
  }
});
