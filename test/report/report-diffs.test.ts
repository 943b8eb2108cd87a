// The command line's side of the page's patches (src/cli/report-diffs.ts, ADR 0071):
// read from a real git repository, base..commit as recorded; bounded (a patch over
// DIFF_BOUNDS.readBytes and the patches past DIFF_BOUNDS.patches are reasons, not
// text); a commit no repository here holds is a reason too, never a failed report.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NodeView, RunSummary } from "../../src/ledger/types.ts";
import { recordedDiffs } from "../../src/cli/report-diffs.ts";
import { DIFF_BOUNDS } from "../../src/report/work.ts";
import { git, makeRepo } from "../workspace/git-repo.ts";

const RUN = "20261201-120000-abcdef";
let repo: string;
let base: string;
let small: string;
let big: string;

beforeAll(() => {
  repo = makeRepo({ "a.txt": "one\n" }, "vouch-report-diffs-");
  base = git(repo, "rev-parse", "HEAD").trim();
  writeFileSync(join(repo, "a.txt"), "one\n</details><script>x</script>\n");
  git(repo, "commit", "--quiet", "-am", "small");
  small = git(repo, "rev-parse", "HEAD").trim();
  writeFileSync(join(repo, "big.txt"), "x".repeat(DIFF_BOUNDS.readBytes + 10_000));
  git(repo, "add", "big.txt");
  git(repo, "commit", "--quiet", "-m", "big");
  big = git(repo, "rev-parse", "HEAD").trim();
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function view(node: string, commit: string, path = `${repo}/.vouch/worktrees/${RUN}/${node}`): NodeView {
  return {
    node,
    kind: "agent",
    status: "passed",
    attempts: [],
    workspace: { branch: `vouch/${RUN}/${node}`, base, commit, files_changed: 1, insertions: 1, deletions: 0, path },
  } as unknown as NodeView;
}
const summary = (nodes: NodeView[], branches: RunSummary["branches"] = []) =>
  ({ run: { id: RUN }, nodes, branches }) as unknown as RunSummary;

describe("recordedDiffs", () => {
  test("the patch base..commit from the repository the worktree was in; an unchanged worktree is not read", async () => {
    const diffs = await recordedDiffs({ cwd: "/" })(summary([view("implement", small), view("same", base)]));
    expect([...diffs.keys()]).toEqual(["implement"]);
    const d = diffs.get("implement")!;
    expect("patch" in d && d.patch).toContain("+</details><script>x</script>\n");
    expect("patch" in d && d.patch.startsWith("diff --git a/a.txt b/a.txt\n")).toBe(true);
  });

  test("a patch over the read bound is not read; a commit no repository here holds is said", async () => {
    const diffs = await recordedDiffs({ cwd: "/" })(
      summary([view("huge", big), view("lost", "0".repeat(40)), view("elsewhere", small, "/nowhere/x")]),
    );
    expect(diffs.get("huge")).toEqual({ unread: "the patch is over 1 MiB" });
    expect(diffs.get("lost")).toEqual({ unread: "commit 000000000000 is in no repository here" });
    // Recorded on another machine (a worker): the repository here is asked, as vouch show --diff does.
    expect(diffs.get("elsewhere")).toEqual({ unread: "commit " + small.slice(0, 12) + " is in no repository here" });
    const here = await recordedDiffs({ cwd: repo })(summary([view("elsewhere", small, "/nowhere/x")]));
    expect("patch" in here.get("elsewhere")!).toBe(true);
  });

  test(`at most ${DIFF_BOUNDS.patches} patches are read, in the page's order (top-level, then branches)`, async () => {
    const branches = Array.from({ length: DIFF_BOUNDS.patches }, (_, index) => ({
      map: "each",
      index,
      nodes: [{ ...view("work", small), branch: { map: "each", index } }],
    })) as unknown as RunSummary["branches"];
    const diffs = await recordedDiffs({ cwd: "/" })(summary([view("first", small)], branches));
    expect(diffs.size).toBe(DIFF_BOUNDS.patches + 1);
    expect("patch" in diffs.get("first")!).toBe(true);
    expect("patch" in diffs.get(`each[${DIFF_BOUNDS.patches - 2}].work`)!).toBe(true);
    expect(diffs.get(`each[${DIFF_BOUNDS.patches - 1}].work`)).toEqual({ unread: `the page shows at most ${DIFF_BOUNDS.patches} patches` });
  }, 60_000);
});
