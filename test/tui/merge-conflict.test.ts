// A merge node's left-out branches (merge.conflict, ADR 0021): the plain log
// prints one line per branch with its conflicting paths, and the TUI shows them
// under the merge node's row; a hostile branch name is shown as text.
import { describe, expect, test } from "vitest";
import { lineText } from "../../src/tui/lines.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { reduceAll, selectFrame } from "../../src/tui/view-model.ts";
import { RunRecorder } from "./helpers/event-builder.ts";

function merging(branch = "vouch/r/each/1/impl"): RunRecorder {
  const r = new RunRecorder();
  r.started([{ id: "integrate", kind: "merge", needs: [] }]);
  r.emit({ type: "node.started", node: "integrate", kind: "merge", attempt: 1 });
  const paths = ["a.js", "b.js", "c.js", "d.js", "e.js", "f.js", "g.js"];
  r.emit({ type: "merge.conflict", node: "integrate", attempt: 1, git_branch: branch, from: "each#1", paths });
  return r;
}

describe("merge.conflict", () => {
  test("plain: one line naming the branch, where it came from and at most five paths", async () => {
    let text = "";
    const out = createPlainOutput((t) => (text += t), { color: false, width: 200 });
    for (const e of merging().events) out.push(e);
    await out.close();
    expect(text.split("\n").filter((l) => l.includes("left out"))).toEqual([
      "⚠ integrate left out vouch/r/each/1/impl (each#1): merge_conflict in a.js, b.js, c.js, d.js, e.js and 2 more",
    ]);
  });

  test("the TUI lists the left-out branch under the merge node", () => {
    const rows = selectFrame(reduceAll(merging().events), { width: 160, height: 20, now: 0 }).lines.map(lineText);
    expect(rows.some((l) => l.includes("⚠ left out vouch/r/each/1/impl") && l.includes("merge_conflict in a.js"))).toBe(true);
  });

  test("an escape sequence in a branch name reaches neither output as a control character", async () => {
    let text = "";
    const out = createPlainOutput((t) => (text += t), { color: false, width: 200 });
    for (const e of merging("vouch/\u001b[2Jx").events) out.push(e);
    await out.close();
    expect(text).not.toContain("\u001b[2J");
    const rows = selectFrame(reduceAll(merging("vouch/\u001b[2Jx").events), { width: 160, height: 20, now: 0 }).lines.map(lineText);
    expect(rows.join("\n")).not.toContain("\u001b");
  });
});
