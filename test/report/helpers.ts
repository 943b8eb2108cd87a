// Runs for the report tests, through the real binary and a throwaway ledger.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_ARGS, vouch, type Ran } from "../e2e/helpers.ts";

export const HOSTILE = join(import.meta.dirname, "graphs", "hostile.yaml");
/** Three branches: one passes, one (with a hostile label) fails its check, one has a pipe. */
export const HOSTILE_ITEMS = "ok one\n<img src=x onerror=window.__pwned=4> bad\nfine | pipe\n";

export const XMLLINT = Bun.which("xmllint");
export const CHROMIUM = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : null;

export async function hostileRun(home: string, extra: string[] = []): Promise<Ran> {
  const items = join(home, "items.txt");
  writeFileSync(items, HOSTILE_ITEMS);
  return vouch(["run", HOSTILE, "-i", `items=@${items}`, "--plain", ...extra], { home });
}

export async function demoRun(home: string, extra: string[] = []): Promise<Ran> {
  return vouch(["run", ...DEMO_ARGS, "--plain", ...extra], { home });
}

/** `vouch report last --format F` on stdout; throws unless it exits 0. */
export async function reportOf(home: string, format: "html" | "junit" | "markdown", run = "last"): Promise<string> {
  const r = await vouch(["report", run, "--format", format], { home });
  if (r.code !== 0) throw new Error(`vouch report ${format}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Tests that need a tool say so plainly when it is missing. */
export function sayMissing(tool: string, pkg: string): void {
  console.log(`[skipped] ${tool} is not installed (Debian package ${pkg}; .ci/run installs it): the tests that need it are skipped`);
}
