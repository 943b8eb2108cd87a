// The work on the page of a real run: `npm run demo:parallel` through dist/vouch
// (four tasks in git worktrees, one tampered, one left out on a conflict, then the
// merge), `vouch report` as a user runs it. The Work section against a golden with
// the run id, the demo's folder and the commits masked (the patches are the
// replayed edits, the same every run). UPDATE_GOLDEN=1 rewrites it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunSummary } from "../../src/ledger/types.ts";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { parallelRun, type ParallelRun } from "./helpers.ts";
import { pageShape, PAGE_TAGS, SVG_TAGS } from "./well-formed.ts";

const GOLDEN = join(import.meta.dirname, "golden", "parallel-implement.work.html");
let dir: TempDir;
let run: ParallelRun;
let page: string;
let show: RunSummary;

beforeAll(async () => {
  ensureBinary();
  dir = tempDir("work-demo");
  run = await parallelRun(dir.path);
  const r = await vouch(["report", "last"], { home: run.home, cwd: dir.path });
  expect(r.code, r.stderr).toBe(0);
  page = r.stdout;
  show = JSON.parse((await vouch(["show", "last", "--json"], { home: run.home })).stdout) as RunSummary;
}, 120_000);
afterAll(() => dir.cleanup());

/** The page with what differs between runs replaced by names: the run id, the folder, each commit by its role, times. */
function masked(text: string): string {
  const roles: [string, string][] = [];
  const integrate = show.nodes.find((n) => n.node === "integrate")!;
  roles.push([integrate.workspace!.base, "<BASE>"], [integrate.workspace!.commit, "<MERGED>"]);
  for (const b of show.branches) roles.push([b.nodes[0]!.workspace!.commit, `<TASK-${b.index}>`]);
  let out = text
    .replaceAll(run.id, "<RUN>")
    .replaceAll(run.repo, "<REPO>")
    .replace(/(exit \d+ · )[0-9.hms]+/g, "$1<TIME>");
  for (const [commit, role] of roles) out = out.replaceAll(commit, role).replaceAll(commit.slice(0, 12), role);
  return out;
}

const workSection = (p: string) => p.slice(p.indexOf('<h2 id="work">Work</h2>'), p.indexOf("<h2>Graph</h2>"));

describe("the demo:parallel run's page shows the work", () => {
  test("golden: the merge's result and every worktree with its patch", () => {
    const work = `${masked(workSection(page))}\n`;
    if (process.env.UPDATE_GOLDEN === "1" || !existsSync(GOLDEN)) writeFileSync(GOLDEN, work);
    expect(work).toBe(readFileSync(GOLDEN, "utf8"));
  });

  test("the left-out branch with its conflicting path, the merged ones in task order, the tampered one not offered", () => {
    const work = workSection(page);
    expect(work).toMatch(
      /<li class="left-out"><b>implement_each\[3\]<\/b> Make TtlCache\.get delete expired entries · <code>vouch\/\S+\/implement_each\/3\/implement<\/code> conflicts with what was merged before it, in <span class="paths"><code>src\/cache\.js<\/code><\/span><\/li>/,
    );
    const merged = [...work.matchAll(/<ol class="merged">([\s\S]*?)<\/ol>/g)][0]![1]!;
    expect([...merged.matchAll(/<b>(implement_each\[\d\])<\/b>/g)].map((m) => m[1])).toEqual(["implement_each[0]", "implement_each[1]"]);
    expect(work).toContain("Not offered (did not pass)</h4><p><b>implement_each[2]</b> Make the tests pass</p>");
    expect(work).toContain("scripts/test (put back as in the base before the checks)");
  });

  test("a patch for each of the four worktrees and the merged branch, read from the demo's repository", () => {
    const work = workSection(page);
    expect(work.match(/<details class="diff">/g)).toHaveLength(5);
    expect(work).not.toContain("Patch not shown");
    // Task 3's own change to src/cache.js: the lines that conflict with task 0's.
    const task3 = work.slice(work.indexOf('data-node="implement_each[3].implement"'));
    expect(task3).toMatch(/<span class="d-file">\+\+\+ b\/src\/cache\.js<\/span>/);
    expect(task3.match(/<span class="d-add">/g)!.length).toBe(4); // +4 -0, as its stat says
  });

  test("the whole page stays well-formed, its own script the only one", () => {
    const shape = pageShape(page, new Set([...PAGE_TAGS, ...SVG_TAGS]));
    expect(shape.problems).toEqual([]);
    expect(shape.scripts).toHaveLength(1);
  });
});
