// Notifications (ADR 0064) as the session makes them, with a fake delivery: which
// events each target hears of, one approval told once, one warning per failing
// target, a target's notifications in order, and settle() waiting for what is under way.
import { describe, expect, test } from "vitest";
import { Notifications, type Deliver } from "../../src/cli/notify/notifications.ts";
import { flagTargets, graphTargets, notifyOnFlag, urlLabel, type NotifyTarget } from "../../src/cli/notify/targets.ts";
import { RunScript } from "../ledger/events-fixture.ts";
import type { Notification } from "../../src/cli/notify/payload.ts";

const target = (on: string[], label = "t"): NotifyTarget => ({
  kind: "command",
  argv: ["x"],
  passEnv: [],
  on: new Set(on) as NotifyTarget["on"],
  timeoutMs: 1000,
  label,
});

function recording(fail: (t: NotifyTarget) => string | null = () => null) {
  const got: { label: string; n: Notification }[] = [];
  const deliver: Deliver = async (t, payload) => {
    got.push({ label: t.label, n: JSON.parse(payload) as Notification });
    return fail(t);
  };
  return { got, deliver };
}

function pausedRun() {
  const s = new RunScript("r1");
  s.started();
  s.nodeStarted({ node: "gate" }, "approval");
  s.ev("run.paused", { reason: "approval", approvals: [{ node: "gate", prompt: "ship it?\nreally" }] });
  s.runFinished("paused", { exit_code: 4, reason: "approval" });
  return s.events;
}

describe("Notifications", () => {
  test("each target hears only the events it chose; an approval asked then paused at is told once", async () => {
    const { got, deliver } = recording();
    const warns: string[] = [];
    const n = new Notifications("r1", [target(["approval_waiting"], "a"), target(["run_finished", "run_failed"], "b")], deliver, (w) =>
      warns.push(w),
    );
    const events = pausedRun();
    n.seen(events[0]!);
    n.asked({ node: "gate", prompt: "ship it?\nreally" });
    for (const e of events.slice(1)) n.seen(e);
    await n.settle();
    expect(got.map((g) => `${g.label}:${g.n.event}`)).toEqual(["a:approval_waiting", "b:run_finished"]);
    const approval = got[0]!.n;
    expect(approval).toMatchObject({ vouch: 1, run: "r1", graph: "demo", node: "gate", prompt: "ship it?\nreally" });
    expect(approval.text).toBe("vouch: demo (run r1) waits for approval gate: ship it?");
    expect(approval.decide).toBe("decide with: vouch approve r1 gate (or vouch reject)");
    expect(got[1]!.n).toMatchObject({ status: "paused", exit_code: 4, reason: "approval" });
    expect(warns).toEqual([]);
  });

  test("a failed run tells run_finished and run_failed; an error run run_errored; usage limits limit_paused", async () => {
    const { got, deliver } = recording();
    const n = new Notifications("r1", [target(["run_finished", "run_failed", "run_errored", "limit_paused"])], deliver, () => {});
    const s = new RunScript("r1");
    s.started();
    s.ev("run.waiting", { reason: "rate_limited", harness: "claude", resets_at: null, wait_ms: 60_000, until: "2026-11-29T22:01:00.000Z" });
    s.ev("run.paused", { reason: "rate_limited", harness: "codex", resets_at: "2026-11-29T23:00:00.000Z", approvals: [], limited: [] });
    s.runFinished("failed");
    s.runFinished("error", { exit_code: 3 });
    for (const e of s.events) n.seen(e);
    await n.settle();
    expect(got.map((g) => g.n.event)).toEqual([
      "limit_paused",
      "limit_paused",
      "run_finished",
      "run_failed",
      "run_finished",
      "run_errored",
    ]);
    expect(got[0]!.n.text).toContain("waits for the claude usage limit, which resets at an unknown time");
    expect(got[1]!.n).toMatchObject({ harness: "codex", resets_at: "2026-11-29T23:00:00.000Z" });
  });

  test("a failing target is warned of once, naming it; the others are not affected", async () => {
    const { got, deliver } = recording((t) => (t.label === "bad" ? "it exited 7" : null));
    const warns: string[] = [];
    const n = new Notifications("r1", [target(["run_finished"], "bad"), target(["run_finished"], "good")], deliver, (w) => warns.push(w));
    const s = new RunScript("r1");
    s.started();
    s.runFinished("paused");
    s.started({ resumed: true });
    s.runFinished("passed");
    for (const e of s.events) n.seen(e);
    await n.settle();
    expect(got.filter((g) => g.label === "good")).toHaveLength(2);
    expect(warns).toEqual([
      "vouch: notify bad (run_finished) failed: it exited 7; the run is not affected, and later failures of this notifier are not reported\n",
    ]);
  });

  test("a delivery that throws is a failure like any other; a target's notifications go in order", async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    const deliver: Deliver = async (_t, payload) => {
      const event = (JSON.parse(payload) as Notification).event;
      if (event === "approval_waiting") await first;
      order.push(event);
      if (event === "run_finished") throw new Error("boom");
      return null;
    };
    const warns: string[] = [];
    const n = new Notifications("r1", [target(["approval_waiting", "run_finished"])], deliver, (w) => warns.push(w));
    for (const e of pausedRun()) n.seen(e);
    let settled = false;
    const s = n.settle().then(() => (settled = true));
    await Promise.resolve();
    expect(order).toEqual([]); // run_finished waits behind the approval's delivery
    expect(settled).toBe(false);
    release();
    await s;
    expect(order).toEqual(["approval_waiting", "run_finished"]);
    expect(warns[0]).toContain("failed: boom");
  });
});

describe("targets", () => {
  test("--notify: a URL is POSTed to, anything else is a program; --notify-on names events", () => {
    const [url, prog] = flagTargets(["https://hooks.example.com/T000/B000/secret", "./tell.sh"], notifyOnFlag("run_failed,run_errored"));
    expect(url).toMatchObject({ kind: "http", label: "https://hooks.example.com/…" });
    expect(prog).toMatchObject({ kind: "command", argv: ["./tell.sh"] });
    expect([...url!.on]).toEqual(["run_failed", "run_errored"]);
    expect([...flagTargets(["x"], notifyOnFlag(undefined))[0]!.on]).toEqual(["approval_waiting", "limit_paused", "run_finished"]);
    expect(() => notifyOnFlag("run_done")).toThrow(/not an event vouch tells of/);
    expect(() => flagTargets(["--oops"], [])).toThrow(/give an https:\/\/ URL or the path of a program/);
    expect(urlLabel("http://127.0.0.1:8080/")).toBe("http://127.0.0.1:8080");
  });

  test("url_env: read when the run starts; unset or not a URL is said once and left out", () => {
    const warns: string[] = [];
    const t = graphTargets(
      [{ url_env: "HOOK" }, { url_env: "MISSING" }, { url_env: "BAD" }, { argv: ["notify-send"], env: ["DISPLAY"], timeout: 5000 }],
      { HOOK: "https://h.example/x", BAD: "file:///etc/passwd" },
      (w) => warns.push(w),
    );
    expect(t.map((x) => x.label)).toEqual(["$HOOK", "notify-send"]);
    expect(t[1]).toMatchObject({ passEnv: ["DISPLAY"], timeoutMs: 5000 });
    expect(warns).toEqual([
      "vouch: notify: url_env MISSING is not set: that notifier is left out\n",
      "vouch: notify: url_env BAD is not an http(s) URL: that notifier is left out\n",
    ]);
  });
});
