// WatchedApprovals (ADR 0063): an approval a watched run waits on is put to the
// person at the watch's live view; a or r records the decision; a decision made
// elsewhere (the node finished) or the run's end takes the question away.
import { describe, expect, test } from "vitest";
import { WatchedApprovals } from "../../src/cli/remote/watch-approvals.ts";
import { createApprovalQueue } from "../../src/tui/approval-queue.ts";
import { RunScript } from "../ledger/events-fixture.ts";

describe("WatchedApprovals", () => {
  test("asked on screen when the approval starts; the answer is recorded for that instance", async () => {
    const queue = createApprovalQueue();
    const recorded: unknown[] = [];
    const w = new WatchedApprovals(queue, (r, d) => recorded.push([r, d]));
    const s = new RunScript("r1");
    s.started();
    const branch = { map: "each", index: 2 };
    s.ev("node.started", { node: "gate", branch, kind: "approval", attempt: 1, prompt: "ship?", round: 2 });
    w.seen(s.events);
    expect(queue.pending()).toEqual([{ id: 1, node: "gate", branch, prompt: "ship?" }]);
    queue.answer(1, "reject");
    await Promise.resolve();
    await Promise.resolve();
    expect(recorded).toEqual([[{ node: "gate", branch, prompt: "ship?", round: 2 }, "reject"]]);
  });

  test("decided elsewhere (node.finished), or the run paused or ended: the question leaves the screen, nothing is recorded", async () => {
    const queue = createApprovalQueue();
    const recorded: unknown[] = [];
    const w = new WatchedApprovals(queue, (r, d) => recorded.push([r, d]));
    const s = new RunScript("r1");
    s.started();
    s.nodeStarted({ node: "a" }, "approval");
    s.nodeStarted({ node: "b" }, "approval");
    s.nodeStarted({ node: "c" }, "agent"); // not an approval: never asked
    w.seen(s.events);
    expect(queue.pending().map((p) => p.node)).toEqual(["a", "b"]);
    w.seen([s.finished({ node: "a" }, "passed", { qualifier: "approved" })]);
    expect(queue.pending().map((p) => p.node)).toEqual(["b"]);
    w.seen([s.ev("run.paused", { reason: "approval", approvals: [{ node: "b" }] })]);
    expect(queue.pending()).toEqual([]);
    await Promise.resolve();
    expect(recorded).toEqual([]);
  });
});
