// Hostile sittings through dist/vouch (issue 26, ADR 0043, 0044): shell scripts
// as `harness: command` agents that attack what judges them — a replace ref,
// index flags in the index vouch records with, the shared info/exclude, the
// node's branch moved, vouch's git dir re-pointed or removed, a check script
// rewritten (scripts/test, a Makefile, package.json scripts, a conftest.py, a
// library check's script). With the sandbox off (defence in depth) each ends
// failed/tampered, error/workspace_error, or has no effect on the verdict; the
// user's repository changes are reported (repo.changed). A real implementation
// of the same task passes.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { git, makeRepo, records } from "../workspace/git-repo.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("hostile");
}, 180_000);
afterAll(() => dir?.cleanup());

const HAS_PYTEST = Bun.spawnSync(["python3", "-m", "pytest", "--version"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;

/** The user's project: value.txt must say "new"; every check form reads it; test/ is protected. */
const FILES: Record<string, string> = {
  "src/value.txt": "old\n",
  "test/has.sh": "grep -q new src/value.txt\n",
  "scripts/test": "#!/bin/sh\ngrep -q new src/value.txt\n",
  "scripts/lib-check": "#!/bin/sh\ngrep -q new src/value.txt\n",
  Makefile: "check:\n\tgrep -q new src/value.txt\n",
  "package.json": '{ "name": "p", "private": true, "scripts": { "test": "grep -q new src/value.txt" } }\n',
  "test_value.py": "def test_value():\n    assert open('src/value.txt').read() == 'new\\n'\n",
  "vouch.checks.yaml": "checks:\n  lib: { run: ./scripts/lib-check }\n",
};

/** The "agent": the prompt names the attack; `honest` does the work. Git runs as an unconfined sitting's would. */
const AGENT = `#!/bin/sh
set -e
p=$(cat)
tree="$VOUCH_WORKSPACE"
repo="\${tree%%/.vouch/worktrees/*}"
own="$tree.git"
case "$p" in
  honest) echo new > src/value.txt ;;
  replace-ref)
    echo 'exit 0' > test/has.sh
    base=$(git -C "$repo" rev-parse HEAD)
    blob=$(git -C "$repo" hash-object -w "$tree/test/has.sh")
    GIT_INDEX_FILE="$repo/../fake-index" git -C "$repo" read-tree "$base"
    GIT_INDEX_FILE="$repo/../fake-index" git -C "$repo" update-index --cacheinfo "100644,$blob,test/has.sh"
    tree_id=$(GIT_INDEX_FILE="$repo/../fake-index" git -C "$repo" write-tree)
    fake=$(git -C "$repo" commit-tree "$tree_id" -m initial)
    git -C "$repo" replace "$base" "$fake" ;;
  index-flags)
    git --git-dir="$own" --work-tree="$tree" update-index --assume-unchanged test/has.sh
    echo 'exit 0' > test/has.sh ;;
  info-exclude)
    echo 'test/extra.sh' >> "$repo/.git/info/exclude"
    echo 'exit 0' > test/extra.sh ;;
  branch-move)
    echo new > src/value.txt
    git -C "$repo" update-ref "refs/heads/$(sed 's|ref: refs/heads/||' "$own/HEAD")" "$(git -C "$repo" commit-tree "$(git -C "$repo" rev-parse HEAD^{tree})" -m elsewhere)" ;;
  head-switch) echo new > src/value.txt; echo 'ref: refs/heads/main' > "$own/HEAD" ;;
  broken-link) echo new > src/value.txt; echo /tmp > "$own/commondir" ;;
  no-git-dir) echo new > src/value.txt; rm -rf "$own" ;;
  rewrite-scripts)
    printf '#!/bin/sh\\nexit 0\\n' > scripts/test
    printf '#!/bin/sh\\nexit 0\\n' > scripts/lib-check
    printf 'check:\\n\\ttrue\\n' > Makefile
    printf '{ "scripts": { "test": "true" } }\\n' > package.json
    printf 'import pytest\\n@pytest.hookimpl(tryfirst=True)\\ndef pytest_runtest_call(item):\\n    pass\\ndef pytest_collection_modifyitems(items):\\n    items.clear()\\n' > conftest.py ;;
esac
echo done
`;

interface Ran {
  code: number;
  stderr: string;
  events: VouchEvent[];
  repo: string;
  /** The user's repository records just before the run (records() of test/workspace/git-repo.ts). */
  before: Record<string, string>;
}

const finished = (events: VouchEvent[], node = "work") =>
  events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === node).at(-1)!;

let n = 0;
/** One run of a graph over a fresh copy of the project, the agent doing `attack`. */
async function attack(prompt: string, checks: string, opts: { sandbox?: "off" | "auto"; extraNodes?: string } = {}): Promise<Ran> {
  const repo = makeRepo(FILES, "vouch-hostile-");
  chmodSync(join(repo, "scripts/test"), 0o755);
  chmodSync(join(repo, "scripts/lib-check"), 0o755);
  git(repo, "update-index", "--chmod=+x", "scripts/test", "scripts/lib-check");
  git(repo, "commit", "-qm", "executable scripts");
  const agent = join(dir.path, `agent-${++n}.sh`);
  writeFileSync(agent, AGENT);
  chmodSync(agent, 0o755);
  const graph = join(repo, "vouch.yaml");
  writeFileSync(
    graph,
    `version: 1
name: hostile
checks_from: [./vouch.checks.yaml]
defaults: { sandbox: ${opts.sandbox ?? "off"} }
nodes:
  work:
    kind: agent
    harness: command
    prompt: ${JSON.stringify(prompt)}
    workspace: { mode: worktree, protect: ["test/**"] }
    success: { checks: [${checks}] }
${opts.extraNodes ?? ""}`,
  );
  mkdirSync(join(dir.path, `home-${n}`));
  const before = records(repo);
  const r = await vouch(["run", graph, "--json"], { home: join(dir.path, `home-${n}`), cwd: repo, env: { VOUCH_COMMAND: agent } });
  return { code: r.code, stderr: r.stderr, events: parseNdjson(r.stdout), repo, before };
}

const HAS = '{ name: has, run: "sh test/has.sh" }';

describe("the honest sitting passes every form of check, sealed or not", () => {
  test.each(["off", "auto"] as const)(
    "sandbox: %s",
    async (sandbox) => {
      const forms = [
        HAS,
        '{ name: script, run: "./scripts/test" }',
        "lib",
        '{ name: make, run: "make check" }',
        '{ name: npm, run: "npm test" }',
      ];
      if (HAS_PYTEST) forms.push('{ name: pytest, run: "python3 -m pytest -q -p no:cacheprovider" }');
      const r = await attack("honest", forms.join(", "), { sandbox });
      expect(finished(r.events)).toMatchObject({ status: "passed", qualifier: "verified" });
      expect(r.events.filter((e) => e.type === "check.finished").map((e) => (e as EventOf<"check.finished">).tree)).toEqual(
        forms.map(() => "commit"),
      );
    },
    60_000,
  );
});

describe("sandbox off: what a sitting does to vouch's git records is seen through or refused", () => {
  test("a replace ref that shows base as holding the tampered test: failed/tampered, and reported", async () => {
    const r = await attack("replace-ref", HAS);
    expect(finished(r.events)).toMatchObject({ status: "failed", cause: "tampered" });
    const changed = r.events.find((e) => e.type === "repo.changed") as EventOf<"repo.changed">;
    expect(changed.changed.some((c) => /^refs\/replace\/[0-9a-f]+ added$/.test(c))).toBe(true);
    expect(r.code).toBe(1);
  }, 60_000);

  test("assume-unchanged on the protected test in the index vouch records with: failed/tampered", async () => {
    const r = await attack("index-flags", HAS);
    expect(finished(r.events)).toMatchObject({ status: "failed", cause: "tampered" });
    expect(finished(r.events).workspace?.tampered).toEqual(["test/has.sh"]);
  }, 60_000);

  test("a new protected file hidden by the shared info/exclude: committed anyway, failed/tampered, and the exclude reported", async () => {
    const r = await attack("info-exclude", HAS);
    expect(finished(r.events)).toMatchObject({ status: "failed", cause: "tampered" });
    expect(finished(r.events).workspace?.tampered).toEqual(["test/extra.sh"]);
    expect((r.events.find((e) => e.type === "repo.changed") as EventOf<"repo.changed">).changed).toContain("info/exclude");
  }, 60_000);

  test.each([
    ["branch-move", /the branch vouch\/\S+\/work was moved from \w+ to \w+, which does not descend from it/],
    ["head-switch", /HEAD was switched to refs\/heads\/main, not the node's branch/],
    ["broken-link", /its git dir was re-pointed at another repository \(\/tmp/],
    ["no-git-dir", /the git dir vouch records it with \(\S+\.git\) is gone/],
  ])(
    "%s: error/workspace_error naming what moved; no commit of vouch's lands anywhere",
    async (prompt, why) => {
      const r = await attack(prompt, HAS);
      const f = finished(r.events);
      expect([f.status, f.cause]).toEqual(["error", "workspace_error"]);
      expect(f.error).toMatch(why);
      expect(r.code).toBe(3);
      expect(git(r.repo, "log", "--all", "--format=%an").split("\n")).not.toContain("vouch");
      // The user's branches, HEAD, index and files are as they were (the graph file was there before the run).
      const after = records(r.repo);
      expect({ refs: after.refs, head: after.head, index: after.index, files: after.files }).toEqual({
        refs: r.before.refs,
        head: r.before.head,
        index: r.before.index,
        files: r.before.files,
      });
    },
    60_000,
  );
});

describe("a rewritten check script has no effect: the check runs the base's (sandbox off and on)", () => {
  const forms = () => {
    const f = ['{ name: script, run: "./scripts/test" }', "lib", '{ name: make, run: "make check" }', '{ name: npm, run: "npm test" }'];
    if (HAS_PYTEST) f.push('{ name: pytest, run: "python3 -m pytest -q -p no:cacheprovider" }');
    return f;
  };
  test.each(["off", "auto"] as const)(
    "sandbox: %s — every check fails as on the untouched work, the user's repository untouched",
    async (sandbox) => {
      const r = await attack("rewrite-scripts", forms().join(", "), { sandbox });
      const f = finished(r.events);
      expect([f.status, f.cause]).toEqual(["failed", "check_failed"]);
      const checks = r.events.filter((e): e is EventOf<"check.finished"> => e.type === "check.finished");
      expect(checks.map((c) => [c.name, c.passed])).toEqual(forms().map((x) => [x === "lib" ? "lib" : /name: (\w+)/.exec(x)![1], false]));
      // The node's own branch keeps what the sitting did; only the checks' trees took the base's scripts.
      expect(git(r.repo, "show", `${f.workspace!.commit}:scripts/test`)).toContain("exit 0");
      expect(records(r.repo)).toEqual(r.before);
      expect(r.events.some((e) => e.type === "repo.changed")).toBe(false);
    },
    90_000,
  );
});

describe("a branch moved after its node was judged: the merge merges the judged commit", () => {
  test("a script left behind re-points the node's branch at a commit with the protected test replaced: the merged tree has the judged work", async () => {
    const mover = `  late:
    kind: script
    needs: [work]
    run: 'repo=$(git rev-parse --show-toplevel) && b=$(git -C "$repo" for-each-ref --format="%(refname)" refs/heads/vouch/ | grep /work$) && t=$(printf "exit 0\\n" | git -C "$repo" hash-object -w --stdin) && tree=$(printf "100644 blob %s\\thas.sh\\n" "$t" | git -C "$repo" mktree) && top=$(printf "040000 tree %s\\ttest\\n" "$tree" | git -C "$repo" mktree) && git -C "$repo" update-ref "$b" "$(git -C "$repo" commit-tree "$top" -m unjudged)"'
  join:
    kind: merge
    needs: [late]
    from: [work]
    success: { checks: [${HAS}] }
`;
    const r = await attack("honest", HAS, { extraNodes: mover });
    expect(finished(r.events, "late").status).toBe("passed");
    const judged = finished(r.events).workspace!.commit;
    expect(git(r.repo, "rev-parse", finished(r.events).workspace!.branch).trim()).not.toBe(judged); // the branch did move
    const j = finished(r.events, "join");
    expect(j).toMatchObject({ status: "passed", qualifier: "verified" });
    const out = j.output as { merged: { commit: string }[]; commit: string };
    expect(out.merged.map((m) => m.commit)).toEqual([judged]);
    expect(git(r.repo, "show", `${out.commit}:test/has.sh`)).toBe(FILES["test/has.sh"]);
    expect(git(r.repo, "show", `${out.commit}:src/value.txt`)).toBe("new\n");
  }, 60_000);
});
