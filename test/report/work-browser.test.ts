// The work on the page as a reviewer sees it, in a real headless Chromium: the
// `npm run demo:parallel` run's report, at 1400 px and at 390 px wide (a phone
// reviewing a PR). The patch opens and shows the agent's lines; the branch left
// out is there with the path that conflicts; nothing errs, calls out or runs
// that is not the page's. A run whose agents wrote hostile files and patches
// shows them as text. VOUCH_UPDATE_SCREENSHOT=1 writes docs/report-wide.png
// and docs/report-phone.png from this run.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureBinary, ROOT, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { makeRepo } from "../workspace/git-repo.ts";
import { openInChromium } from "./browser.ts";
import { CHROMIUM, parallelRun, sayMissing } from "./helpers.ts";

const OUT = join(ROOT, "test-output");
let dir: TempDir;

beforeAll(() => {
  ensureBinary();
  dir = tempDir("work-browser");
  mkdirSync(OUT, { recursive: true });
});
afterAll(() => dir.cleanup());

if (!CHROMIUM) sayMissing("chromium", "chromium");

type El = { open: boolean; textContent: string; hidden: boolean };

describe.skipIf(!CHROMIUM)("the work on the page, in headless Chromium", () => {
  test("demo:parallel: the patch, the left-out branch and its conflicting path, at 1400 and 390 px", async () => {
    const run = await parallelRun(dir.path);
    const file = join(dir.path, "parallel.html");
    const r = await vouch(["report", "last", "-o", file], { home: run.home, cwd: dir.path });
    expect(r.code, r.stderr).toBe(0);
    const o = await openInChromium(CHROMIUM!, pathToFileURL(file).href);
    try {
      const { page } = o;
      // The branch left out, and the path it conflicts on, as a reader sees them.
      const left = page.locator("section.merge li.left-out");
      await expect(left.count()).resolves.toBe(1);
      await expect(left.first().isVisible()).resolves.toBe(true);
      const leftText = await left.first().innerText();
      expect(leftText).toContain("implement_each[3]");
      expect(leftText).toContain("Make TtlCache.get delete expired entries");
      expect(leftText).toMatch(/conflicts with what was merged before it, in\s+src\/cache\.js/);
      // The left-out task's own patch: collapsed until opened, then its added lines show.
      const task3 = page.locator('section.work[data-node="implement_each[3].implement"]');
      const added = task3.locator("pre.diff .d-add").first();
      await expect(added.isVisible()).resolves.toBe(false);
      await task3.locator("details.diff > summary").click();
      await expect(added.isVisible()).resolves.toBe(true);
      await expect(task3.locator("pre.diff").innerText()).resolves.toContain("+++ b/src/cache.js");
      await page.locator("section.merge details.diff > summary").click();
      // The merged branch's checks.
      await expect(page.locator("section.merge li.check.pass").first().isVisible()).resolves.toBe(true);

      // The wide picture: the page's head and the merge's result with its patch open, at 1400 px.
      await page.setViewportSize({ width: 1400, height: 900 });
      const bottom = async (selector: string) =>
        page.evaluate((sel) => {
          const g = globalThis as unknown as {
            document: { querySelector(s: string): { getBoundingClientRect(): { bottom: number } } };
            scrollY: number;
          };
          return g.document.querySelector(sel).getBoundingClientRect().bottom + g.scrollY;
        }, selector);
      await page.screenshot({
        path: join(OUT, "report-wide.png"),
        fullPage: true,
        clip: { x: 0, y: 0, width: 1400, height: (await bottom("section.merge")) + 12 },
      });
      await page.setViewportSize({ width: 390, height: 844 });
      // At phone width nothing is wider than the screen but the patch (which scrolls in its own box).
      const overflow = await page.evaluate(() => {
        const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
        return d.documentElement.scrollWidth - d.documentElement.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      // The phone picture: the Work section from its heading into the left-out task's opened patch.
      const top = async (selector: string) =>
        page.evaluate((sel) => {
          const g = globalThis as unknown as {
            document: { querySelector(s: string): { getBoundingClientRect(): { top: number } } };
            scrollY: number;
          };
          return g.document.querySelector(sel).getBoundingClientRect().top + g.scrollY;
        }, selector);
      const from = (await top("#work")) - 8;
      const to = (await top('section.work[data-node="implement_each[3].implement"] table.wfacts')) + 480;
      await page.screenshot({
        path: join(OUT, "report-phone.png"),
        fullPage: true,
        clip: { x: 0, y: from, width: 390, height: to - from },
      });
      if (process.env.VOUCH_UPDATE_SCREENSHOT === "1") {
        copyFileSync(join(OUT, "report-wide.png"), join(ROOT, "docs", "report-wide.png"));
        copyFileSync(join(OUT, "report-phone.png"), join(ROOT, "docs", "report-phone.png"));
      }
      expect(o.errors).toEqual([]);
      expect(o.requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
      expect(o.requests).toHaveLength(1);
    } finally {
      await o.close();
    }
  }, 120_000);

  test("agents that wrote hostile files: the patch, the conflicting path and the task show as text, nothing of theirs runs", async () => {
    const repo = makeRepo({ "README.md": "a project\n" }, "vouch-hostile-work-");
    const agent = join(dir.path, "hostile-agent.sh");
    // Both tasks write the same file differently: the second conflicts. Its name and contents are markup.
    writeFileSync(
      agent,
      `#!/bin/sh\nprompt=$(cat)\nprintf '%s\\n' "$prompt" '</pre></details><script>window.__pwned=5</script>' "$(printf '\\033[31mred\\033[0m')" > '<img src=x onerror=window.__pwned=6>.txt'\necho done\n`,
    );
    chmodSync(agent, 0o755);
    const items = join(dir.path, "items.txt");
    writeFileSync(items, "</summary><script>window.__pwned=7</script>\n<img src=y onerror=window.__pwned=8>\n");
    const home = join(dir.path, "hostile-home");
    const graph = join(import.meta.dirname, "graphs", "hostile-work.yaml");
    // Written by the run itself (--report html:FILE): the session's wiring reads the patches too.
    const file = join(dir.path, "hostile-work.html");
    const ran = await vouch(["run", graph, "-i", `items=@${items}`, "-i", `project_dir=${repo}`, "--plain", "--report", `html:${file}`], {
      home,
      env: { VOUCH_COMMAND: agent },
    });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stderr).toContain(`wrote the html report to ${file}`);
    const o = await openInChromium(CHROMIUM!, pathToFileURL(file).href);
    try {
      const { page } = o;
      for (const s of await page.locator("details.diff").all()) await s.locator("summary").click();
      expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await page.locator("img, iframe, object, embed").count()).toBe(0);
      expect(await page.locator("script").count()).toBe(1);
      const left = await page.locator("li.left-out").innerText();
      expect(left).toContain("<img src=x onerror=window.__pwned=6>.txt");
      expect(left).toContain("<img src=y onerror=window.__pwned=8>");
      const diffs = await page.locator("pre.diff").allInnerTexts();
      expect(diffs.join("\n")).toContain("+</pre></details><script>window.__pwned=5</script>");
      expect(diffs.join("\n")).toContain("+red"); // the escape sequences dropped, the text kept
      expect(diffs.join("\n")).not.toContain("\u001b");
      expect(o.errors).toEqual([]);
      expect(o.requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
    } finally {
      await o.close();
    }
  }, 120_000);
});
