// The session's Approvals port and its RequestWatch (ADR 0062), on a real ledger:
// the order decisions answer in, the live view raced with a decision recorded by
// another process (the first one stored wins), and cancels taken once, only when
// recorded after the session started.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { openLedger, type CancelRequest, type RunLedger } from "../../src/ledger/index.ts";
import { RequestWatch } from "../../src/cli/remote/request-watch.ts";
import { sessionApprovals } from "../../src/cli/remote/session-approvals.ts";
import { createApprovalQueue } from "../../src/tui/approval-queue.ts";
import { tempHome, type TempHome } from "../ledger/temp-home.ts";

let t: TempHome;
let ledger: RunLedger;
let watch: RequestWatch;
let cancels: CancelRequest[];
beforeEach(() => {
  t = tempHome();
  ledger = openLedger({ home: t.home });
  cancels = [];
  watch = new RequestWatch(ledger.requests, "r1", (r) => cancels.push(r), { onError: (e) => void e });
});
afterEach(() => {
  watch.stop();
  ledger.close();
  t.cleanup();
});

const me = { user: "me", host: "here", pid: 1 };
const other = { user: "bob", host: "far", pid: 2 };
const gate = { node: "gate" };
const remote = (decision: "approve" | "reject", over: object = {}) =>
  ledger.requests.decide("r1", { node: "gate", round: 1, decision, via: "command", by: other, at: "2026-12-01T10:00:00.000Z", ...over });
const base = { runId: "r1", me, flags: new Map(), standing: new Map(), waitRemote: false };
const never = new AbortController().signal;

describe("sessionApprovals", () => {
  test("headless without --wait-approvals pauses; the events' decision, then the table's, then a flag answer first", async () => {
    const a = sessionApprovals({ ...base, requests: ledger.requests, watch });
    expect(await a.decide(gate, never)).toBe("pause");
    const flagged = sessionApprovals({ ...base, requests: ledger.requests, flags: new Map([["gate", "reject" as const]]) });
    expect(await flagged.decide(gate, never)).toMatchObject({ decision: "reject", by: "me@here (a flag)" });
    // The flag's decision was stored: it stands for this instance now.
    expect(ledger.requests.decisionFor("r1", "gate", undefined, 1)).toMatchObject({ decision: "reject", via: "flag" });
    const approving = sessionApprovals({ ...base, requests: ledger.requests, flags: new Map([["gate", "approve" as const]]) });
    expect(await approving.decide(gate, never)).toMatchObject({ decision: "reject" });
    const standing = sessionApprovals({ ...base, requests: ledger.requests, standing: new Map([["gate", "approve" as const]]) });
    expect(await standing.decide(gate, never)).toBe("approve");
  });

  test("--wait-approvals: a decision another process records later answers, with who and the note", async () => {
    const a = sessionApprovals({ ...base, requests: ledger.requests, watch, waitRemote: true });
    let answer: unknown;
    const p = a.decide({ ...gate, round: 2 }, never).then((d) => (answer = d));
    watch.poll();
    await Promise.resolve();
    expect(answer).toBeUndefined();
    remote("approve", { round: 1 }); // another round's: not this instance
    watch.poll();
    await Promise.resolve();
    expect(answer).toBeUndefined();
    remote("approve", { round: 2, note: "ok" });
    watch.poll();
    await p;
    expect(answer).toEqual({ decision: "approve", by: "bob@far (vouch approve)", note: "ok" });
  });

  test("the live view and vouch approve race: the remote one wins and the question leaves the screen", async () => {
    const queue = createApprovalQueue();
    const a = sessionApprovals({ ...base, requests: ledger.requests, watch, ask: queue });
    const p = a.decide(gate, never);
    expect(queue.pending()).toHaveLength(1);
    remote("reject");
    watch.poll();
    expect(await p).toMatchObject({ decision: "reject", by: "bob@far (vouch approve)".replace("approve", "reject") });
    expect(queue.pending()).toEqual([]);
  });

  test("the live view answers first, but a decision stored meanwhile stands: the stored one is applied", async () => {
    const queue = createApprovalQueue();
    const a = sessionApprovals({ ...base, requests: ledger.requests, watch, ask: queue });
    const p = a.decide(gate, never);
    remote("reject"); // recorded, not yet polled
    queue.answer(queue.pending()[0]!.id, "approve");
    expect(await p).toMatchObject({ decision: "reject", by: "bob@far (vouch reject)" });
  });

  test("the live view alone: its decision is stored as the session's (via tui)", async () => {
    const queue = createApprovalQueue();
    const a = sessionApprovals({ ...base, requests: ledger.requests, watch, ask: queue });
    const p = a.decide(gate, never);
    queue.answer(queue.pending()[0]!.id, "approve");
    expect(await p).toMatchObject({ decision: "approve", by: "me@here (the live view)" });
    expect(ledger.requests.after("r1", 0)).toEqual([expect.objectContaining({ via: "tui", decision: "approve" })]);
  });

  test("a stop while waiting rejects with the stop's reason", async () => {
    const stop = new AbortController();
    const a = sessionApprovals({ ...base, requests: ledger.requests, watch, waitRemote: true });
    const p = a.decide(gate, stop.signal);
    stop.abort(new Error("wall"));
    await expect(p).rejects.toThrow("wall");
  });
});

describe("RequestWatch", () => {
  test("a cancel recorded before the session started is not its; one recorded after is taken once", () => {
    watch.stop();
    ledger.requests.cancel("r1", "command", other, "2026-12-01T10:00:00.000Z");
    const fresh = new RequestWatch(ledger.requests, "r1", (r) => cancels.push(r), { onError: () => {} });
    fresh.poll();
    expect(cancels).toEqual([]);
    ledger.requests.cancel("r2", "command", other, "2026-12-01T10:00:01.000Z");
    const mine = ledger.requests.cancel("r1", "mcp", other, "2026-12-01T10:00:02.000Z");
    fresh.poll();
    fresh.poll();
    expect(cancels).toEqual([mine]);
  });

  test("a poll that cannot read the ledger is said once and the watch stops", () => {
    const errors: unknown[] = [];
    const broken = {
      ...ledger.requests,
      after: () => {
        throw new Error("disk gone");
      },
    };
    const w = new RequestWatch(broken, "r1", () => {}, { onError: (e) => errors.push(e) });
    w.poll();
    w.poll();
    expect(errors).toHaveLength(1);
  });
});
