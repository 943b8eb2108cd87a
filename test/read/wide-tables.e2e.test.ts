// `vouch runs` and `vouch show` line their columns up by what a terminal shows, not by
// UTF-16 code units: a graph named in CJK, node names with emoji (🚀 and ✅ are two
// columns wide), branch labels in Japanese. Driven through the compiled binary, as a
// user would. Before src/text/table.ts measured with string-width, the columns after a
// CJK or emoji cell were shifted right by one column per wide character.
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { dirname } from "node:path";
import stringWidth from "string-width";
import { openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "../ledger/events-fixture.ts";
import { tempHome } from "../ledger/temp-home.ts";
import { BINARY, ensureBinary } from "../graph/binary.ts";

let t: ReturnType<typeof tempHome>;
beforeAll(() => void ensureBinary(), 180_000);
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

async function vouch(args: string[]) {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TZ: "UTC", VOUCH_HOME: t.home };
  const p = Bun.spawn([BINARY, ...args], { env, cwd: dirname(t.home), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

const segmenter = new Intl.Segmenter();

/** The text before and from display column `col`. */
function cutAt(line: string, col: number): [string, string] {
  let w = 0;
  let i = 0;
  for (const { segment, index } of segmenter.segment(line)) {
    if (w >= col) return [line.slice(0, index), line.slice(index)];
    w += stringWidth(segment);
    i = index + segment.length;
  }
  return [line.slice(0, i), line.slice(i)];
}

/** Every row has a column boundary where the header starts `name`: two spaces before, a cell after. */
function misaligned(table: string[], name: string): string[] {
  const header = table[0]!;
  const col = stringWidth(header.slice(0, header.indexOf(name)));
  return table.slice(1).filter((row) => {
    const [before, after] = cutAt(row, col);
    return !(before.endsWith("  ") && after !== "" && !after.startsWith(" "));
  });
}

function wideRun(): void {
  const ledger = openLedger({ home: t.home });
  const r = new RunScript("r-wide-0001");
  r.started({
    graph: "検証グラフ🚀",
    nodes: [
      { id: "ビルド", kind: "script", needs: [] },
      { id: "✅確認", kind: "agent", needs: [] },
      { id: "each", kind: "map", needs: [] },
      { id: "🚀", kind: "agent", needs: [], map: "each" },
    ],
  });
  r.nodeStarted({ node: "ビルド" }, "script");
  r.finished({ node: "ビルド" }, "passed");
  r.nodeStarted({ node: "✅確認" }, "agent");
  r.finished({ node: "✅確認" }, "failed", { cause: "check_failed", error: "テスト失敗", cost_usd: 0.0047, turns: 3 });
  r.nodeStarted({ node: "each" }, "map");
  const branch = { map: "each", index: 0 };
  r.ev("branch.started", { branch, item: "x", label: "日本語のラベル 🚀" });
  r.nodeStarted({ node: "🚀", branch }, "agent");
  r.finished({ node: "🚀", branch }, "passed", { cost_usd: 0.42 });
  r.ev("branch.finished", { branch, status: "passed", verdict: "確認済み" });
  r.finished({ node: "each" }, "passed");
  r.runFinished("failed", { cost_usd: 0.4247 });
  ledger.write(r.events);
  const plain = new RunScript("r-plain-0002");
  plain.started({ graph: "ascii" });
  plain.runFinished("passed", { cost_usd: 1.5 });
  ledger.write(plain.events);
  ledger.close();
}

describe("tables line up by display width (CJK, emoji)", () => {
  test("vouch runs: every column starts where its header does", async () => {
    wideRun();
    const r = await vouch(["runs"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.some((l) => l.includes("検証グラフ🚀"))).toBe(true);
    for (const column of ["STATUS", "STARTED", "WALL", "COST"]) expect([column, misaligned(lines, column)]).toEqual([column, []]);
  });

  test("vouch show: the node table's columns start where their headers do", async () => {
    wideRun();
    const r = await vouch(["show", "r-wide-0001"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    const start = lines.findIndex((l) => l.startsWith("NODE"));
    const table = lines.slice(start, lines.indexOf("", start));
    expect(table.length).toBe(6); // header, two nodes, the map, its branch, the branch's node
    expect(table.join("\n")).toContain("日本語のラベル 🚀");
    expect(misaligned(table, "STATUS")).toEqual([]);
    // A branch row has no STOP, COST, TURNS or WALL cell; every node row has them.
    const nodeRows = [table[0]!, ...table.slice(1).filter((l) => !l.trimStart().startsWith("#"))];
    for (const column of ["STOP", "COST", "TURNS", "WALL"]) expect([column, misaligned(nodeRows, column)]).toEqual([column, []]);
  });

  test("the check can fail: a table padded by code units is caught", () => {
    const header = "NODE    STATUS";
    expect(misaligned([header, "ビルド    passed"], "STATUS")).toEqual(["ビルド    passed"]);
    expect(misaligned([header, "ビルド  passed", "build   passed"], "STATUS")).toEqual([]);
  });
});
