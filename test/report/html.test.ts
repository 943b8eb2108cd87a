// The HTML page as a file: self-contained (no external src or href, a CSP that
// forbids fetches), every hostile string escaped, and the graph's SVG inlined
// with one node shape per graph node. The browser test opens it for real.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { join } from "node:path";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { html } from "../../src/report/escape.ts";
import { dotString } from "../../src/engine/graph/draw-dot.ts";
import { graphSvg, inlineSvg } from "../../src/report/graph-svg.ts";
import type { ReportModel } from "../../src/report/model.ts";
import { hostileRun, reportOf } from "./helpers.ts";

let home: TempDir;
let page: string;

beforeAll(async () => {
  ensureBinary();
  home = tempDir("html");
  expect((await hostileRun(home.path)).code).toBe(1);
  page = await reportOf(home.path, "html");
}, 60_000);
afterAll(() => home.cleanup());

/** Every element's attribute names (quoted values blanked, so text in them is not read as markup). */
function attributeNames(markup: string): string[] {
  return [...markup.matchAll(/<[a-zA-Z][^>]*>/g)].flatMap((m) =>
    [...m[0].replace(/"[^"]*"/g, '""').matchAll(/\s([a-zA-Z:-]+)(?==|\s|>|\/)/g)].map((a) => a[1]!.toLowerCase()),
  );
}

describe("vouch report --format html (the file)", () => {
  test("holds exactly one script element (its own) and no event-handler attribute", () => {
    expect(page.match(/<script/gi)).toHaveLength(1);
    const names = attributeNames(page);
    expect(names).toContain("class"); // the attribute reader reads
    expect(names.filter((n) => n.startsWith("on"))).toEqual([]);
    expect(page).toContain("&lt;script&gt;window.__pwned=2&lt;/script&gt;");
    expect(page).toContain("&lt;img src=x onerror=window.__pwned=4&gt; bad");
    expect(page).not.toMatch(/[\u0000-\u0008\u001b]/);
  });

  test("loads nothing: no src or href attribute, and a CSP with default-src 'none'", () => {
    expect(attributeNames(page).filter((n) => /^(src|href|xlink:href|action|formaction|srcset|poster|data)$/.test(n))).toEqual([]);
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*script-src 'sha256-/);
  });

  test("the graph is inline SVG from Graphviz: one node shape per graph node, coloured by status", () => {
    const svg = page.slice(page.indexOf("<svg"), page.indexOf("</svg>"));
    expect(svg.match(/<g id="node\d+" class="node">/g)).toHaveLength(5); // evil, after_evil, slow, each, each/one
    expect(svg).toContain('fill="#c62828"'); // failed
    expect(svg).toContain('fill="#ef6c00"'); // error
    expect(svg).toContain(">script · 2/3 passed<");
  });
});

describe("escaping for the page and the graph", () => {
  test("html(): no markup survives, for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("<", ">", "&", '"', "'", "a", "\u001b", "=") }), (s) => {
        expect(html(s)).not.toMatch(/[<>"']|&(?!amp;|lt;|gt;|quot;|#39;)/);
      }),
    );
  });
  test("hostile node ids reach Graphviz as labels only: no DOT, SVG or script injected", async () => {
    const ids = ["<script>alert(1)</script>", 'a"]; n9 -> n9; x [label="', '\\N & "quoted" -->', "<img src=x onerror=alert(2)>"];
    const model = {
      graph: ids.map((id, i) => ({ id, kind: "script", needs: i === 1 ? [ids[0]!] : [] })),
      // Names reach DOT as quoted ids and labels (the one DOT writer, as `vouch graph` writes them).
      summary: { run: { graph: 'g"]; x -> y; "' }, nodes: ids.map((id) => ({ node: id, status: "failed" })), branches: [] },
    } as unknown as ReportModel;
    const svg = await graphSvg(model);
    expect(svg.match(/<g id="node\d+" class="node">/g)).toHaveLength(4);
    expect(svg.match(/class="edge"/g)).toHaveLength(1);
    expect(svg).not.toMatch(/<script|<img|<!--/i);
    expect(attributeNames(svg).filter((n) => n.startsWith("on") || n === "src")).toEqual([]);
    expect(svg).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(svg).toContain("\\N &amp; &quot;quoted&quot; &#45;&#45;&gt;"); // \N stays literal, not the node's name
  });

  test("inlineSvg(): an SVG with a script, a handler or a link is not inlined", () => {
    const ok = '<?xml version="1.0"?>\n<!-- n0 --><svg><g class="node"><text>a onerror=b</text></g></svg>';
    expect(inlineSvg(ok)).toBe('<svg><g class="node"><text>a onerror=b</text></g></svg>');
    for (const bad of [
      "<svg><script>x</script></svg>",
      '<svg><g onload="x"></g></svg>',
      '<svg><a xlink:href="javascript:x"><text>a</text></a></svg>',
      "<svg><image src='x'/></svg>",
    ]) {
      expect(inlineSvg(bad)).toBe('<p class="why">The graph could not be drawn safely.</p>');
    }
  });

  test("dotString(): a quoted DOT string no node name can leave", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('"', "\\", "a", "\n", ";", "]") }), (s) => {
        const q = dotString(s);
        // Drop escaped pairs: what is left holds no quote but the two delimiters.
        expect(q.slice(1, -1).replace(/\\./g, "")).not.toMatch(/["\\\n]/);
      }),
    );
  });
});

describe("vouch report --format html: size", () => {
  test("a branch verdict of 100,000 characters is shown cut, with its length: the page stays small", async () => {
    const h = tempDir("html-big-verdict");
    try {
      expect((await vouch(["run", join(import.meta.dirname, "graphs", "big-verdict.yaml"), "--plain"], { home: h.path })).code).toBe(0);
      const big = await reportOf(h.path, "html");
      expect(big.match(/<tr class="branch"/g)).toHaveLength(3);
      expect(big).toContain("(100000 characters)");
      expect(big.length).toBeLessThan(100_000); // uncut: three verdicts, each twice, over 600 kB
    } finally {
      h.cleanup();
    }
  }, 60_000);
});
