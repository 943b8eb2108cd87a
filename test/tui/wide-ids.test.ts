// The live view lines its node rows up by display width: node ids in CJK or with
// emoji (two columns each) do not push the kind column right. Before, the id column
// was padded by UTF-16 code units (String.padEnd), so a row of "ビルド" ran 3 columns long.
import { describe, expect, test } from "vitest";
import { selectBodyRows, reduceAll } from "../../src/tui/view-model.ts";
import { lineText } from "../../src/tui/lines.ts";
import { displayWidth } from "../../src/text/width.ts";
import { RunScript } from "../ledger/events-fixture.ts";

describe("node rows with wide ids", () => {
  test("the kind column starts at the same display column on every row", () => {
    const r = new RunScript("r-wide-tui");
    const ids = ["ビルド", "✅確認", "build", "🚀"];
    r.started({ nodes: ids.map((id) => ({ id, kind: "script", needs: [] })) });
    for (const id of ids) {
      r.nodeStarted({ node: id }, "script");
      r.finished({ node: id }, "passed");
    }
    const rows = selectBodyRows(reduceAll(r.events), { now: Date.now(), selected: null }).map(lineText);
    expect(rows).toHaveLength(4);
    const kindAt = rows.map((row) => displayWidth(row.slice(0, row.indexOf("script"))));
    expect(new Set(kindAt).size).toBe(1);
  });
});
