// The HTML report as a person sees it: opened from disk in a real headless
// Chromium. The failing check's tail is visible, the graph is there with one
// shape per node, the branch filter filters, nothing errs or calls out, and a
// hostile check's output shows as text without running.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBinary, ROOT, tempDir, type TempDir } from "../e2e/helpers.ts";
import { openInChromium, type Opened } from "./browser.ts";
import { CHROMIUM, demoRun, hostileRun, reportOf, sayMissing } from "./helpers.ts";

const OUT = join(ROOT, "test-output");
let home: TempDir;
const started = Date.now();

beforeAll(() => {
  ensureBinary();
  home = tempDir("browser");
  mkdirSync(OUT, { recursive: true });
});
afterAll(() => {
  home.cleanup();
  if (CHROMIUM) console.log(`[report-browser] the Chromium tests took ${((Date.now() - started) / 1000).toFixed(1)}s`);
});

async function open(format: "html", name: string): Promise<Opened> {
  const file = join(home.path, name);
  writeFileSync(file, await reportOf(home.path, format));
  return openInChromium(CHROMIUM!, pathToFileURL(file).href);
}

if (!CHROMIUM) sayMissing("chromium", "chromium");

describe.skipIf(!CHROMIUM)("the HTML report in headless Chromium", () => {
  test("the demo run: tail visible, graph drawn, branch filter works, no error, no request", async () => {
    expect((await demoRun(home.path)).code).toBe(0);
    const o = await open("html", "demo.html");
    try {
      const { page } = o;
      // The failing check's tail (F5 cites a line its file does not have), visible as text.
      await expect(page.getByText("src/cache.js has 22 lines; cited line 40").first().isVisible()).resolves.toBe(true);
      // One Graphviz node shape per graph node: parse, parse_fault, verify_each, done, verify_one.
      expect(await page.locator(".graph svg g.node").count()).toBe(5);
      expect(await page.locator(".graph svg g.node polygon, .graph svg g.node path").count()).toBeGreaterThanOrEqual(5);
      expect(await page.locator(".graph svg g.node text").allTextContents()).toContain("verify_one");

      const rows = page.locator("section.map tr.branch");
      // Runs in the page: typed loosely, the project's tsconfig has no DOM library.
      type Row = { hidden: boolean; querySelector(s: string): { textContent: string } | null };
      const visible = async () =>
        rows.evaluateAll((rs) =>
          (rs as unknown as Row[]).filter((r) => !r.hidden).map((r) => r.querySelector("td:nth-child(2)")!.textContent),
        );
      expect(await visible()).toEqual(["F1", "F2", "F3", "F4", "F5", "F6"]);
      await page.locator("section.map .f-status").selectOption("failed");
      expect(await visible()).toEqual(["F5"]);
      await page.locator("section.map .f-status").selectOption("all");
      await page.locator("section.map .f-text").fill("verified");
      expect(await visible()).toEqual(["F1", "F4"]);
      await expect(page.locator("section.map .f-count").textContent()).resolves.toBe("2 shown");
      await page.locator("section.map .f-text").fill("");
      expect(await visible()).toHaveLength(6);

      await page.screenshot({ path: join(OUT, "report-demo.png"), fullPage: true });
      if (process.env.VOUCH_UPDATE_SCREENSHOT === "1")
        copyFileSync(join(OUT, "report-demo.png"), join(ROOT, "docs", "report-screenshot.png"));
      expect(o.errors).toEqual([]);
      expect(o.requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
      expect(o.requests).toHaveLength(1); // the page itself
    } finally {
      await o.close();
    }
  }, 90_000);

  test("hostile check output, labels and inputs show as text; no script of theirs runs", async () => {
    expect((await hostileRun(home.path)).code).toBe(1);
    const o = await open("html", "hostile.html");
    try {
      const { page } = o;
      expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await page.locator("img, iframe, object, embed").count()).toBe(0);
      expect(await page.locator("script").count()).toBe(1); // the page's own filter
      const text = await page.locator("body").innerText();
      expect(text).toContain("<script>window.__pwned=2</script>");
      expect(text).toContain("<img src=x onerror=window.__pwned=3>");
      expect(text).toContain("<img src=x onerror=window.__pwned=4> bad");
      await expect(page.getByText("TAIL-MARKER").first().isVisible()).resolves.toBe(true);
      await page.screenshot({ path: join(OUT, "report-hostile.png"), fullPage: true });
      expect(o.errors).toEqual([]);
      expect(o.requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
    } finally {
      await o.close();
    }
  }, 90_000);
});
