// The report's sections of the work (ADR 0071) against goldens, from a run made in
// memory (test/report/work-fixtures.ts): the merge's result and every worktree with
// its patch, the timeline's axis, marks and legend, a sub-graph folded under its
// node. (Claims vs evidence is the summary's table: src/report/html-evidence.ts, ADR 0068.)
// UPDATE_GOLDEN=1 rewrites the golden.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { nodeSections } from "../../src/report/html-nodes.ts";
import { timelineHtml } from "../../src/report/html-timeline.ts";
import { workHtml } from "../../src/report/html-work.ts";
import { renderHtml } from "../../src/report/html.ts";
import { DIFF_BOUNDS, type NodeDiff } from "../../src/report/work.ts";
import { PLAIN, RUN, workModel } from "./work-fixtures.ts";

const GOLDEN = join(import.meta.dirname, "golden", "work-sections.html");

function golden(text: string): void {
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(GOLDEN)) writeFileSync(GOLDEN, text);
  expect(text).toBe(readFileSync(GOLDEN, "utf8"));
}

/** Text content with tags dropped and entities read back (enough for our own escaping). */
function textOf(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

describe("the work sections", () => {
  const model = workModel();
  const top = model.nodes.filter((n) => !n.branch);
  const sections = [
    "<!-- work -->",
    workHtml(model),
    "<!-- nodes -->",
    nodeSections(top),
    "<!-- timeline -->",
    timelineHtml(model),
    "",
  ].join("\n");

  test("golden", () => golden(sections));

  test("the merge: merged in order, the branch left out with its conflicting path, the checks on the merged tree", () => {
    const work = textOf(workHtml(model));
    expect(work).toContain(`Onto vouch/${RUN}/merged at 444444444444, from HEAD (111111111111) · 1 file, +2 -1`);
    expect(work).toMatch(
      /Merged, in this orderimplement_each\[0\] Make TtlCache\.get honour ttlMs · vouch\/\S+\/implement_each\/0\/implement at 222222222222/,
    );
    expect(work).toContain("Left outimplement_each[1] Make slugify keep digits");
    expect(work).toContain("conflicts with what was merged before it, in src/cache.js");
    expect(work).toMatch(/Checks on the merged tree✔ pass tests/);
    expect(work).toContain("Not offered (did not pass)implement_each[2] Make the tests pass");
  });

  test("each worktree: branch, commit from base, stat, what it tampered with, its patch collapsed", () => {
    const work = workHtml(model);
    expect(work.match(/<section class="work"/g)).toHaveLength(3);
    expect(work.match(/<details class="diff"><summary>diff: 10 lines<\/summary>/g)).toHaveLength(2); // the merge's and branch 0's
    expect(textOf(work)).toContain("scripts/test (put back as in the base before the checks)");
    expect(work).toContain('<span class="d-add">+    const e = this.map.get(key);</span>');
    expect(work).toContain('<span class="d-del">-    return this.map.get(key);</span>');
    expect(work).toContain('<span class="d-hunk">@@ -10,3 +10,4 @@ export class TtlCache {</span>');
  });

  test("a long patch: its first lines, then how many more and the command that prints them", () => {
    const long = Array.from({ length: DIFF_BOUNDS.lines + 25 }, (_, i) => `+line ${i}`).join("\n");
    const wide = `+${"x".repeat(DIFF_BOUNDS.lineChars + 100)}`;
    const diffs = new Map<string, NodeDiff>([
      ["integrate", { patch: `${long}\n` }],
      ["implement_each[0].implement", { patch: wide }],
      ["implement_each[1].implement", { unread: "the patch is over 1 MiB" }],
      ["implement_each[2].implement", { patch: "" }],
    ]);
    const work = textOf(workHtml(workModel(PLAIN, { diffs })));
    expect(work).toContain(`diff: the first ${DIFF_BOUNDS.lines} of ${DIFF_BOUNDS.lines + 25} lines`);
    expect(work).toContain(`25 more lines: vouch show ${RUN} --diff integrate prints all of it`);
    expect(work).toContain(`+line ${DIFF_BOUNDS.lines - 1}`);
    expect(work).not.toContain(`+line ${DIFF_BOUNDS.lines}`);
    expect(work).toContain(`… (${DIFF_BOUNDS.lineChars + 101} characters)`);
    expect(work).toContain("1 long line cut at 400 characters");
    expect(work).toContain(`Patch not shown (the patch is over 1 MiB): vouch show ${RUN} --diff implement_each[1].implement prints it.`);
  });

  test("patches of the worst kind, as many as are read: the page stays under its size bound, the rest counted", () => {
    const worst = `${Array.from({ length: DIFF_BOUNDS.lines + 100 }, () => `+${'"'.repeat(DIFF_BOUNDS.lineChars * 2)}`).join("\n")}\n`;
    const diffs = new Map<string, NodeDiff>(
      ["integrate", "implement_each[0].implement", "implement_each[1].implement", "implement_each[2].implement"].map((l) => [
        l,
        { patch: worst },
      ]),
    );
    const work = workHtml(workModel(PLAIN, { diffs }));
    // Four patches of 6 MB escaped would be 24 MB: the page's room is DIFF_BOUNDS.pageChars.
    expect(work.length).toBeLessThan(DIFF_BOUNDS.pageChars + 50_000);
    expect(work.length).toBeGreaterThan(DIFF_BOUNDS.pageChars * 0.9);
    expect(textOf(work)).toContain(
      `${DIFF_BOUNDS.lines + 100} more lines (the page's room for patches is used up): vouch show ${RUN} --diff implement_each[2].implement`,
    );
  });

  test("no patches handed in (another reader, or git out of reach): the facts, and where the patch is", () => {
    const work = textOf(workHtml(workModel(PLAIN, { diffs: new Map() })));
    expect(work).toContain(
      `Patch not shown (the patch was not read for this page): vouch show ${RUN} --diff implement_each[0].implement prints it.`,
    );
    expect(work).toContain("branchvouch/");
  });

  test("a sub-graph's nodes fold under its graph node, two levels deep", () => {
    const nodes = nodeSections(top);
    const review = nodes.slice(nodes.indexOf('id="node-review"'));
    expect(review.indexOf('id="node-review/lint"')).toBeGreaterThan(0);
    const check = review.slice(review.indexOf('id="node-review/check"'));
    expect(check.indexOf('id="node-review/check/fmt"')).toBeGreaterThan(0);
    expect(textOf(nodes)).toContain("Its sub-graph's 2 nodes:");
    expect(textOf(nodes)).toContain("Its sub-graph's 1 node:");
    // Each node once, at its own place.
    expect(nodes.match(/id="node-/g)).toHaveLength(top.length);
  });

  test("the timeline: an axis, the marks where they happened, a legend that names every mark", () => {
    const tl = timelineHtml(model);
    expect(tl).toContain('<span class="tl-label">time from start</span>');
    expect(tl.match(/class="tl-tick/g)!.length).toBeGreaterThanOrEqual(3);
    for (const kind of ["retry", "limit", "approval", "paused", "session"])
      expect(tl, kind).toMatch(new RegExp(`class="tl-mark m-${kind}"`));
    expect(textOf(tl)).toContain("retried: the attempt did not pass and was asked again");
    expect(textOf(tl)).toContain("usage limit: the harness stopped the attempt");
    expect(textOf(tl)).toContain("approval asked: the run waited for a person");
    expect(tl).toContain('title="implement_each[1].implement · retry at 300ms · check_failed: tests failed"');
  });

  test("caps as people write them: $5 and 45m; an overrun's limit too", () => {
    const page = renderHtml(model, "");
    expect(textOf(page)).toContain("budget $5, wall 45m");
    expect(textOf(page)).toContain("run: budget_usd $5.25 over limit $5 (run)");
  });
});
