// A node in a git worktree (ADR 0020): the plain lines name its branch and diff
// stat (a passed branch node too, which otherwise prints nothing), the TUI's row
// shows the diff stat and its details the branch, tampering in the bad tone.
import { describe, expect, test } from "vitest";
import type { EventBody, WorkspaceRecord } from "../../src/engine/events.ts";
import { lineText } from "../../src/tui/lines.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { reduceAll, selectDetails, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder, ZERO } from "./helpers/event-builder.ts";

const ws = (over: Partial<WorkspaceRecord> = {}): WorkspaceRecord => ({
  branch: "vouch/r1/impl",
  base: "a".repeat(40),
  commit: "b".repeat(40),
  files_changed: 2,
  insertions: 3,
  deletions: 1,
  path: "/repo/.vouch/worktrees/r1/impl",
  ...over,
});

function events() {
  const r = new RunRecorder();
  const nodes = [
    { id: "impl", kind: "agent", needs: [] },
    { id: "each", kind: "map", needs: [] },
    { id: "work", kind: "agent", needs: [], map: "each" },
  ];
  r.emit({
    type: "run.started",
    graph: "w",
    graph_path: "w.yaml",
    graph_digest: "d",
    inputs: {},
    caps: { budget_usd: null, wall_ms: null },
    concurrency: 1,
    nodes,
    pass_env: [],
    harness: null,
    resumed: false,
    version: "0",
  });
  const done = (node: string, more: Partial<EventBody & { type: "node.finished" }>): EventBody =>
    ({
      type: "node.finished",
      node,
      attempt: 1,
      status: "passed",
      qualifier: "verified",
      stop_reason: "complete",
      cause: null,
      cost_usd: 0.01,
      turns: 1,
      wall_ms: 200,
      ...more,
    }) as EventBody;
  r.emit({ type: "node.started", node: "impl", kind: "agent", attempt: 1, harness: "command" });
  r.emit(done("impl", { workspace: ws() }));
  r.emit({ type: "node.started", node: "each", kind: "map", attempt: 1 });
  r.emit({ type: "branch.started", branch: { map: "each", index: 0 }, item: "a", label: "a" });
  r.emit({ type: "node.started", node: "work", branch: { map: "each", index: 0 }, kind: "agent", attempt: 1, harness: "command" });
  r.emit(
    done("work", {
      branch: { map: "each", index: 0 },
      workspace: ws({ branch: "vouch/r1/each/0/work", files_changed: 1, insertions: 1, deletions: 0 }),
    }),
  );
  r.emit({ type: "branch.started", branch: { map: "each", index: 1 }, item: "b", label: "b" });
  r.emit({ type: "node.started", node: "work", branch: { map: "each", index: 1 }, kind: "agent", attempt: 1, harness: "command" });
  r.emit(
    done("work", {
      branch: { map: "each", index: 1 },
      status: "failed",
      qualifier: null,
      cause: "tampered",
      error: "the attempt changed protected paths: test/t.sh",
      workspace: ws({ branch: "vouch/r1/each/1/work", tampered: ["test/t.sh"] }),
    }),
  );
  r.emit({
    type: "run.finished",
    status: "failed",
    exit_code: 1,
    cost_usd: 0.03,
    cost_unknown: 0,
    wall_ms: 900,
    counts: { ...ZERO, passed: 2, failed: 1 },
  });
  return r.events;
}

describe("worktree lines", () => {
  test("plain: a line with the branch and diff stat under each node in a worktree", async () => {
    let text = "";
    const out = createPlainOutput((t) => (text += t), { color: false, width: 200 });
    for (const e of events()) out.push(e);
    await out.close();
    const lines = text.split("\n");
    expect(lines[lines.indexOf("✓ impl passed verified  $0.01 · 1 turn · 200ms") + 1]).toBe("    ⎇ vouch/r1/impl · 2 files, +3 -1");
    expect(lines).toContain("    ⎇ each[0].work  vouch/r1/each/0/work · 1 file, +1 -0");
    expect(lines).toContain("    ⎇ each[1].work  vouch/r1/each/1/work · 2 files, +3 -1 · tampered: test/t.sh");
  });

  test("TUI: the row shows the diff stat, the details the branch", () => {
    const s = reduceAll(events());
    const text = selectFrame(s, { width: 120, height: 40, now: Date.now() }).lines.map(lineText);
    expect(text.find((l) => l.includes(" impl "))).toContain("⎇ 2 files, +3 -1");
    const details = selectDetails(s, "impl", { now: Date.now(), width: 100 }).map(lineText);
    expect(details.some((l) => /worktree\s+vouch\/r1\/impl · 2 files, \+3 -1/.test(l))).toBe(true);
  });
});
