// One cause→status table (CAUSE_STATUS in src/engine/events.ts): the ledger's rows of a
// retried attempt take their status from it, and docs/events.md lists each cause under it.
// Before the table, src/ledger/causes.ts kept a copy that had `graph_failed` as an error.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { CAUSES, CAUSE_STATUS, NODE_STATUSES, type Cause } from "../../src/engine/events.ts";
import { openLedger, type RunLedger } from "../../src/ledger/index.ts";
import { RunScript } from "../ledger/events-fixture.ts";
import { tempHome } from "../ledger/temp-home.ts";

let t: ReturnType<typeof tempHome>;
let ledger: RunLedger;
beforeEach(() => {
  t = tempHome();
  ledger = openLedger({ home: t.home });
});
afterEach(() => {
  ledger.close();
  t.cleanup();
});

const DOC = readFileSync(join(import.meta.dirname, "..", "..", "docs", "events.md"), "utf8");

/** docs/events.md's `cause` paragraph: "failed — `a`, `b`; error — …; skipped — …; cancelled — …". */
function documentedStatus(): Map<string, string> {
  const start = DOC.indexOf("- `cause` (why a node did not pass):");
  const text = DOC.slice(start, DOC.indexOf("\n- ", start + 3));
  const out = new Map<string, string>();
  const heads = [...text.matchAll(/(failed|error|skipped|cancelled) —/g)];
  heads.forEach((h, i) => {
    const part = text.slice(h.index, heads[i + 1]?.index ?? text.length);
    // Only the causes themselves: a backticked word followed by a comma, a semicolon, a space and a
    // parenthesis, a full stop, or the end of the list (explanations in parentheses name other words).
    const stripped = part.replace(/\([^()]*(?:\([^()]*\)[^()]*)*\)/g, "");
    for (const m of stripped.matchAll(/`([a-z_]+)`/g)) out.set(m[1]!, h[1]!);
  });
  return out;
}

describe("the cause→status table", () => {
  test("names every cause, each with a node status", () => {
    expect(Object.keys(CAUSE_STATUS).sort()).toEqual([...CAUSES].sort());
    for (const c of CAUSES) expect(NODE_STATUSES).toContain(CAUSE_STATUS[c]);
  });

  test("graph_failed is a failure (the sub-graph's evidence said no), graph_error an error", () => {
    expect(CAUSE_STATUS.graph_failed).toBe("failed");
    expect(CAUSE_STATUS.graph_error).toBe("error");
  });

  test("docs/events.md lists each cause under the status the table gives it (the reader finds every cause)", () => {
    const doc = documentedStatus();
    expect(doc.size).toBe(CAUSES.length);
    for (const c of CAUSES) expect([c, doc.get(c)]).toEqual([c, CAUSE_STATUS[c]]);
  });

  test.each(["graph_failed", "check_failed", "cap_stop", "timeout"] as Cause[])(
    "a retried attempt with cause %s is stored with the table's status",
    (cause) => {
      const r = new RunScript("r-cause-0001");
      r.started({ nodes: [{ id: "review", kind: "graph", needs: [] }] });
      r.ev("node.started", { node: "review", kind: "graph", attempt: 1 });
      r.ev("node.retrying", { node: "review", attempt: 1, cause, reason: "again", backoff_ms: 0 });
      ledger.write(r.events);
      const a = ledger.runSummary(r.run).nodes[0]!.attempts[0]!;
      expect([cause, a.status]).toEqual([cause, CAUSE_STATUS[cause]]);
    },
  );
});
