// Runs for the report tests, through the real binary and a throwaway ledger.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_ARGS, ROOT, vouch, type Ran } from "../e2e/helpers.ts";

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

/** A map of two items whose second branch fails its script and `exhausted:` recovers it: the run passes. */
export async function recoveredRun(home: string): Promise<Ran> {
  const graph = join(home, "g.yaml");
  writeFileSync(
    graph,
    [
      "version: 1",
      "name: recovered",
      "inputs:",
      "  items: { default: [good, bad] }",
      "nodes:",
      "  each:",
      "    kind: map",
      "    over: inputs.items",
      "    branch:",
      "      one:",
      "        kind: script",
      '        run: grep -q good "$VOUCH_ITEM_FILE"',
      '        exhausted: { output: { note: "skipped: not good" } }',
      "",
    ].join("\n"),
  );
  return vouch(["run", graph, "--plain"], { home, cwd: home });
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

export interface ParallelRun {
  home: string;
  /** The git repository the demo made (its worktrees and branches are there). */
  repo: string;
  id: string;
  stdout: string;
}

/** `npm run demo:parallel` as CI runs it (scripts/demo-parallel.sh, plain output), in `dir`. */
export async function parallelRun(dir: string): Promise<ParallelRun> {
  const home = join(dir, "parallel-home");
  const p = Bun.spawn(["sh", join(ROOT, "scripts", "demo-parallel.sh"), "--plain"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, TZ: "UTC", VOUCH_HOME: home, TMPDIR: dir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`demo:parallel: exit ${code}: ${stderr}`);
  return { home, repo: /the demo's repository: (\S+)/.exec(stdout)![1]!, id: /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(stdout)![1]!, stdout };
}
