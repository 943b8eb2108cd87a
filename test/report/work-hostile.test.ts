// Hostile text in the work the page shows (ADR 0071): task labels, patches, a
// conflicting path, a check's output and a claim made of markup pieces, closing
// tags, escape sequences and controls. For any of them the page stays
// well-formed (test/report/well-formed.ts), runs only its own script, and shows
// the text as text. The browser test opens a real run's page with such a patch.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { html } from "../../src/report/escape.ts";
import { renderHtml } from "../../src/report/html.ts";
import { workHtml } from "../../src/report/html-work.ts";
import { boundDiff, mergeResultOf } from "../../src/report/work.ts";
import { pageShape } from "./well-formed.ts";
import { PLAIN, workModel, type Texts } from "./work-fixtures.ts";

const PIECES = [
  "<",
  ">",
  "&",
  '"',
  "'",
  "/",
  "a",
  " ",
  "\n",
  "+",
  "-",
  "@@ ",
  "<script>window.__pwned=1</script>",
  "</details>",
  "</pre>",
  "</summary>",
  "<details open>",
  "<img src=x onerror=window.__pwned=2>",
  "<!--",
  "-->",
  "<![CDATA[",
  "\u001b[31m",
  "\u001b]8;;https://x\u0007",
  "\u0000",
  "\r",
  "\t",
  "\u202e",
  "\u2028",
  "&lt;",
  "javascript:",
  "__proto__",
];
const hostile = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join(""));
const texts: fc.Arbitrary<Texts> = fc.record({
  task0: hostile,
  task1: hostile,
  task2: hostile,
  patch0: hostile,
  patch1: hostile,
  path: hostile,
  tail: hostile,
  claim: hostile,
});

const OWN_SCRIPT = pageShape(renderHtml(workModel(PLAIN), "")).scripts;

describe("hostile text in the work sections", () => {
  test("the plain page is well-formed, with one script", () => {
    expect(pageShape(renderHtml(workModel(PLAIN), "")).problems).toEqual([]);
    expect(OWN_SCRIPT).toHaveLength(1);
  });

  test("for any hostile labels, patches, paths and tails: well-formed, only the page's own script, the text shown", () => {
    fc.assert(
      fc.property(texts, (t) => {
        const page = renderHtml(workModel(t), "");
        const shape = pageShape(page);
        expect(shape.problems).toEqual([]);
        expect(shape.scripts).toEqual(OWN_SCRIPT);
        expect(page).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u001b\u202e\u2028]/);
        // What the run said is on the page, as text (escaped after escape sequences were dropped).
        for (const s of [t.path, t.task0]) expect(page).toContain(html(s).trim() === "" ? "" : html(s));
      }),
      { numRuns: 200 },
    );
  });

  test("a patch line that closes the page's own elements is a line of text in the diff", () => {
    const patch = "+</pre></details><script>window.__pwned=3</script>\n-<details open><summary>x\n";
    const page = renderHtml(workModel({ ...PLAIN, patch0: patch }), "");
    expect(pageShape(page).problems).toEqual([]);
    expect(page).toContain('<span class="d-add">+&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;window.__pwned=3&lt;/script&gt;</span>');
    expect(boundDiff(patch).lines).toEqual(["+</pre></details><script>window.__pwned=3</script>", "-<details open><summary>x"]);
  });

  test("a left-out reason named like an object's own property reads as itself (the reasons are looked up by own key)", () => {
    const model = workModel();
    const merge = model.nodes.find((n) => n.path === "integrate")!;
    const output = merge.view.output as { left_out: { reason: string }[] };
    for (const reason of ["__proto__", "constructor", "toString"]) {
      output.left_out[0]!.reason = reason;
      expect(workHtml(model)).toContain(`</code> ${reason} <span class="paths">`);
    }
  });

  test("a recorded merge output of the wrong shape is not a merge result; odd fields are dropped, never trusted", () => {
    for (const bad of [
      null,
      "x",
      [],
      { merged: "x", left_out: [] },
      { merged: [] },
      { __proto__: { merged: [], left_out: [] } },
      JSON.parse('{"__proto__": {"merged": [], "left_out": []}}'),
    ]) {
      expect(mergeResultOf(bad)).toBeNull();
    }
    const odd = mergeResultOf({
      merged: [{ branch: 1, from: {}, commit: null }, "x"],
      left_out: [{ paths: ["a", 2, null] }],
      not_passed: [3, "m#1"],
    });
    expect(odd).toEqual({
      branch: null,
      base: "",
      base_commit: "",
      commit: "",
      merged: [{ branch: "", from: "", commit: "" }],
      left_out: [{ branch: "", from: "", reason: "", paths: ["a"] }],
      not_passed: ["m[1]"],
    });
  });
});
