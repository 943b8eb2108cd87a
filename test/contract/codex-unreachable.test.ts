// codex against a model endpoint nobody listens on (issue 28 item 4). claude and
// gemini give up in seconds; codex prints `{"type":"error","message":"Reconnecting...
// waiting for network …"}` for ever, the gaps growing to about a minute (measured
// with 0.171.0: 2, 8, 14, 22, 44, 63, 63 … s). On main a node with no caps of its
// own waited for ever, and an idle cap longer than those gaps never fired: each
// notice counted as output. Every agent sitting now has a default wall and idle
// cap (shown by --dry-run), and a reconnect notice is no progress.
import { afterAll, expect, test } from "vitest";
import { cleanupScratch, codexHome, describeCli, oneNodeGraph, runContract } from "./lib/index.ts";
import { vouch } from "../e2e/helpers.ts";

afterAll(() => cleanupScratch());

/** Port 9 (discard) on loopback: nothing listens, every connection is refused. */
const NOWHERE = "http://127.0.0.1:9/v1";

describeCli("codex", "codex against an unreachable endpoint", () => {
  test("--dry-run shows the default wall and idle caps of a node that sets none, and none when the graph says so", async () => {
    const { graph } = oneNodeGraph({ harness: "codex", caps: "{ turns: 3 }" });
    const r = await vouch(["run", graph, "--dry-run"], { home: codexHome(NOWHERE) });
    expect(r.stdout).toMatch(/ask\s+agent\s+codex\s+turns 3, wall 1h \(default\), idle 15m \(default\)/);
    const lifted = oneNodeGraph({ harness: "codex", caps: "{ wall: none, idle: 2m }" });
    const l = await vouch(["run", lifted.graph, "--dry-run"], { home: codexHome(NOWHERE) });
    expect(l.stdout).toMatch(/ask\s+agent\s+codex\s+wall none, idle 2m$/m);
  });

  test("its reconnect notices are no progress: an idle cap longer than their gaps stops it (on main: the run's wall cap did)", {
    timeout: 360_000,
  }, async () => {
    const { graph } = oneNodeGraph({ harness: "codex", caps: "{ idle: 70s }" });
    const r = await runContract(graph, codexHome(NOWHERE), { FAKE_OPENAI_KEY: "fake-key" }, { args: ["--wall", "4m"] });
    expect(r.node).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "idle" });
    expect(r.node?.error).toMatch(/no progress for 70000 ms \(its reconnect and retry notices do not count\)/);
    const idle = r.overruns.find((o) => o.cap === "idle");
    expect(idle?.limit).toBe(70_000);
    expect(idle?.actual).toBeGreaterThan(70_000);
    expect(r.code).toBe(3);
  });
});
