// Headless Chromium for the report tests: Debian's /usr/bin/chromium driven by
// playwright-core (which downloads no browser), in a fresh profile, with
// everything that would reach the network on its own turned off.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Opened {
  page: Page;
  /** Console errors and uncaught page errors. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
  close(): Promise<void>;
}

export async function openInChromium(executablePath: string, url: string): Promise<Opened> {
  const profile = mkdtempSync(join(tmpdir(), "vouch-chromium-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1200, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  context.on("request", (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: "load" });
  return {
    page,
    errors,
    requests,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
