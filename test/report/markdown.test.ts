// The Markdown summary (for $GITHUB_STEP_SUMMARY and PR comments): hostile
// tails stay inside their fenced blocks, table cells cannot break the table,
// and HTML from the run never reaches the page as markup.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { join } from "node:path";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { mdCode, mdFence, mdHtmlInline, mdInline } from "../../src/report/escape.ts";
import { hostileRun, reportOf } from "./helpers.ts";

let home: TempDir;
let md: string;

beforeAll(async () => {
  ensureBinary();
  home = tempDir("markdown");
  expect((await hostileRun(home.path)).code).toBe(1);
  md = await reportOf(home.path, "markdown");
}, 60_000);
afterAll(() => home.cleanup());

/** The text outside fenced code blocks (what GitHub renders as Markdown/HTML). */
function outsideFences(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const m = /^(`{3,})/.exec(line);
    if (fence === null && m) fence = m[1]!;
    else if (fence !== null && line.startsWith(fence) && line.slice(fence.length).trim() === "") fence = null;
    else if (fence === null) out.push(line);
  }
  expect(fence).toBeNull(); // every fence closed
  return out.join("\n");
}

describe("vouch report --format markdown", () => {
  test("a status line, a node table, failed checks with tails in <details>", () => {
    expect(md.split("\n")[0]).toBe("### ❌ vouch: `hostile-report` failed (exit 1)");
    expect(md).toContain("| node | status | qualifier | cost | wall |");
    // $0 as everywhere (src/text/money.ts; it was $0.0000 in the report alone).
    expect(md).toMatch(/^\| each\\\[1\\\]\.one \| ❌ failed \| – \| \$0 \| \d+ms \|$/m);
    expect(md).toMatch(/^\| slow \| ⚠️ error \|/m);
    expect(md).toContain("<details><summary>evil: check <code>xss</code> expected <code>exit_zero</code>");
    expect(md).toContain("TAIL-MARKER");
  });

  test("the hostile tail sits in a fence longer than its own backtick run; nothing of it renders as HTML", () => {
    expect(md).toContain("`````text\n<script>window.__pwned=2</script>\nred | a|b ```` fence");
    const rendered = outsideFences(md);
    expect(rendered).not.toContain("<script");
    expect(rendered).not.toContain("<img");
    expect(rendered).not.toContain("TAIL-MARKER");
    expect(md).not.toMatch(/[\u0000-\u0008\u001b]/);
    // Each table row has exactly its five cells: no pipe of a label or tail split one.
    for (const row of rendered.split("\n").filter((l) => l.startsWith("| "))) expect(row.replace(/\\\|/g, "").split("|")).toHaveLength(7);
  });
});

describe("Markdown escaping", () => {
  test("mdFence: no line of the text can close the fence", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("`", "`", "a", "\n", " ", "~") }), (s) => {
        const block = mdFence(s);
        const fence = /^`+/.exec(block)![0];
        const inner = block.split("\n").slice(1, -1);
        expect(inner.some((l) => l.trimEnd().startsWith(fence))).toBe(false);
        expect(block.endsWith(`\n${fence}`)).toBe(true);
      }),
    );
  });
  test("mdInline: no pipe, angle bracket, backtick or newline gets through unescaped", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("|", "<", ">", "`", "\n", "\\", "*", "a", "[", "]") }), (s) => {
        const out = mdInline(s).replace(/\\[\\`*_[\]|~#!()]/g, "");
        expect(out).not.toMatch(/[|<>`\n\\]/);
      }),
    );
  });
});

describe("Markdown escaping: one line, no mention", () => {
  test("mdHtmlInline and mdCode: no newline, no markup, no backtick in a span, no @word, for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("\n", "\r", "@", "a", "<", "`", " ", "\u2028", "\u001b") }), (s) => {
        for (const out of [mdHtmlInline(s), mdCode(s), mdInline(s)]) {
          expect(out).not.toMatch(/[\n\r\u2028\u001b]/);
          expect(out).not.toMatch(/@[A-Za-z0-9]/);
        }
        expect(mdHtmlInline(s)).not.toContain("<");
        expect(mdCode(s)).not.toContain("`");
      }),
    );
  });
});

describe("Markdown summary: names cannot leave their line or ping anyone", () => {
  test("a graph name and a check name with blank lines, images, links and @mentions stay inline text", async () => {
    const h = tempDir("markdown-breakout");
    try {
      expect((await vouch(["run", join(import.meta.dirname, "graphs", "markdown-breakout.yaml"), "--plain"], { home: h.path })).code).toBe(
        1,
      );
      const out = await reportOf(h.path, "markdown");
      // The status line is one line: the graph name did not open a paragraph of its own.
      expect(out.split("\n")[0]).toMatch(/^### ❌ vouch: `evil .*fake passed` failed \(exit 1\)$/);
      // The <summary> is one line: no blank line ends the HTML block inside it.
      const summary = out.split("\n").find((l) => l.startsWith("<details><summary>"))!;
      expect(summary).toContain("expected <code>exit_zero</code>");
      expect(summary).toMatch(/<\/summary>$/);
      const rendered = outsideFences(out);
      expect(rendered).not.toMatch(/^<img|^!\[|^# fake/m);
      // No @mention GitHub would turn into a notification (in a PR comment).
      expect(rendered).not.toMatch(/@octocat/);
    } finally {
      h.cleanup();
    }
  }, 60_000);
});
