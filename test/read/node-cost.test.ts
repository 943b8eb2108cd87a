// One nodeCost: the live view (the TUI's reducer) and `vouch show` (the ledger's
// runSummary) fed the same events say the same cost for each node and for the run.
// Before the read model they had two rules that disagreed on exactly these runs:
// the TUI took the larger of the live sum and node.finished's cost (a finished node
// of unknown cost still showed its live sum) and forgot a node's earlier sessions;
// the ledger counted a usage-limited attempt as the round's last word.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { openLedger, type RunLedger } from "../../src/ledger/index.ts";
import { reduceAll } from "../../src/tui/view-model.ts";
import { tuiNodeCost } from "./cost-of.ts";
import { RunScript } from "../ledger/events-fixture.ts";
import { tempHome } from "../ledger/temp-home.ts";

let t: ReturnType<typeof tempHome>;
let ledger: RunLedger;
beforeEach(() => {
  t = tempHome();
  ledger = openLedger({ home: t.home, now: () => Date.parse("2026-11-29T23:00:00.000Z") });
});
afterEach(() => {
  ledger.close();
  t.cleanup();
});

const FIX = { node: "fix" };
const NODES = [{ id: "fix", kind: "agent", needs: [] }];

/** What each side says: the node's cost and the run's, as numbers (null: unknown). */
function bothSides(run: string, events: VouchEvent[]) {
  ledger.write(events);
  const shown = ledger.runSummary(run);
  const live = reduceAll(events);
  return {
    show: { node: shown.nodes[0]!.cost_usd, run: shown.run.cost_usd },
    tui: { node: tuiNodeCost(live.nodes.fix!), run: live.costUsd },
  };
}

describe("the live view and vouch show count a node's cost by one rule", () => {
  test("a retried node whose last attempt's cost is unknown: unknown on both (node.finished says null)", () => {
    const r = new RunScript("r-cost-0001");
    r.started({ nodes: NODES });
    r.nodeStarted(FIX, "agent");
    r.ev("node.progress", { ...FIX, attempt: 1, cost_usd: 0.3 });
    r.ev("node.retrying", { ...FIX, attempt: 1, cause: "check_failed", reason: "again", backoff_ms: 0 });
    r.nodeStarted(FIX, "agent", 2);
    r.finished(FIX, "error", { attempt: 2, stop_reason: "crashed", cause: "harness_error", cost_usd: null });
    r.runFinished("error", { cost_usd: 0.3, cost_unknown: 1 });
    const { show, tui } = bothSides(r.run, r.events);
    expect(show.node).toBeNull();
    expect(tui.node).toBe(show.node);
  });

  test("a node that failed in the first session and ran again on resume: both sessions' sittings count", () => {
    const r = new RunScript("r-cost-0002");
    r.started({ nodes: NODES });
    r.nodeStarted(FIX, "agent");
    r.ev("node.progress", { ...FIX, attempt: 1, cost_usd: 0.2 });
    r.finished(FIX, "failed", { cause: "check_failed", cost_usd: 0.2 });
    r.runFinished("failed", { cost_usd: 0.2 });
    r.started({ nodes: NODES, resumed: true });
    r.nodeStarted(FIX, "agent");
    r.ev("node.progress", { ...FIX, attempt: 1, cost_usd: 0.1 });
    r.finished(FIX, "passed", { cost_usd: 0.1 });
    r.runFinished("passed", { cost_usd: 0.1 });
    const { show, tui } = bothSides(r.run, r.events);
    expect(show.node).toBeCloseTo(0.3, 10);
    expect(show.run).toBeCloseTo(0.3, 10);
    expect(tui.node).toBeCloseTo(show.node!, 10);
    expect(tui.run).toBeCloseTo(show.run, 10);
  });

  test("a retried node then held by a usage limit: the retried attempt's cost is not dropped", () => {
    const r = new RunScript("r-cost-0003");
    r.started({ nodes: NODES });
    r.nodeStarted(FIX, "agent");
    r.ev("node.progress", { ...FIX, attempt: 1, cost_usd: 0.2 });
    r.ev("node.retrying", { ...FIX, attempt: 1, cause: "check_failed", reason: "again", backoff_ms: 0 });
    r.nodeStarted(FIX, "agent", 2);
    r.ev("node.progress", { ...FIX, attempt: 2, cost_usd: 0.1 });
    r.ev("node.limited", { ...FIX, attempt: 2, harness: "claude", resets_at: null, error: "limit", cost_usd: 0.1, turns: 1 });
    r.ev("run.paused", { reason: "rate_limited", harness: "claude", resets_at: null, approvals: [] });
    r.runFinished("paused", { cost_usd: 0.3 });
    const { show, tui } = bothSides(r.run, r.events);
    expect(show.node).toBeCloseTo(0.3, 10);
    expect(tui.node).toBeCloseTo(show.node!, 10);
  });

  test("feedback rounds: each finished round's node.finished cost, summed", () => {
    const r = new RunScript("r-cost-0004");
    r.started({ nodes: NODES });
    r.ev("node.started", { ...FIX, kind: "agent", attempt: 1, round: 1 });
    r.ev("node.progress", { ...FIX, attempt: 1, cost_usd: 0.05 });
    r.finished(FIX, "passed", { cost_usd: 0.05, round: 1 });
    r.ev("node.started", { ...FIX, kind: "agent", attempt: 1, round: 2 });
    r.ev("node.progress", { ...FIX, attempt: 1, cost_usd: 0.07 });
    r.finished(FIX, "passed", { cost_usd: 0.07, round: 2 });
    r.runFinished("passed", { cost_usd: 0.12 });
    const { show, tui } = bothSides(r.run, r.events);
    expect(show.node).toBeCloseTo(0.12, 10);
    expect(tui.node).toBeCloseTo(show.node!, 10);
  });
});
