// Hostile sittings through the real binary (issue 26, ADR 0040/0041): one node
// per attack, as a `harness: command` agent and as a script node, each in a
// worktree (a tree of its own), sealed by default. Every attack on the user's
// repository, checkout, other worktrees, the ledger or $HOME has no effect, an
// edit of a protected file behind an index flag ends failed/tampered, a setsid
// leftover is dead before the checks run, and the user's repository is
// byte-identical afterwards. The same attacks with --sandbox off change it:
// the assertions can fail; the setsid leftover then lives on, but the check it
// races runs on a tree of its own (ADR 0043) and is not fooled.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { git, makeRepo, records } from "../workspace/git-repo.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";
import { HAVE_BWRAP, processesWith } from "../spawn/helpers.ts";

/** The setsid leftover's marker, this test process's own: a leftover of another run of this
 *  file at the same moment (its unsealed half keeps one alive on purpose) is not counted here. */
const LEFTOVER = `3141.${String(process.pid).padStart(7, "0")}`; // fixed width: no pid is a prefix of another

/** What each attack does; the sitting prints what the file system answered. */
const HOSTILE = `#!/bin/sh
if [ -n "$VOUCH_NODE" ]; then attack="\${VOUCH_NODE#s_}"; cat > /dev/null; else attack=$(cat); fi
tree="$VOUCH_WORKSPACE"; repo="\${tree%%/.vouch/worktrees/*}"; run_dir="\${tree%/*}"
t() { ( eval "$1" ) 2>&1 && echo "DID: $1"; }
case "$attack" in
  config) t "echo '[core] hooksPath = /tmp/evil' >> '$repo/.git/config'"; t "git config --file '$repo/.git/config' core.fsmonitor /tmp/evil" ;;
  hooks) t "printf '#!/bin/sh\\necho pwned\\n' > '$repo/.git/hooks/pre-commit'" ;;
  replace) t "mkdir -p '$repo/.git/refs/replace' && git rev-parse HEAD > '$repo/.git/refs/replace/'\\$(git rev-parse HEAD)"; git replace -f HEAD HEAD~0 2>&1 ;;
  index) git update-index --assume-unchanged test/has.sh; echo 'exit 0 # tampered' > test/has.sh; git status --porcelain ;;
  exclude) t "echo '*' >> '$repo/.git/info/exclude'"; echo 'new.secret' >> .git/info/exclude; echo s > new.secret ;;
  branch) t "echo 0000000000000000000000000000000000000000 > '$repo/.git/refs/heads/main'"; t "git -C '$repo' branch -f main HEAD"; git checkout -q -b elsewhere; git branch -f "vouch/x" HEAD 2>&1 ;;
  link) rm -rf .git; echo "gitdir: $repo/.git" > .git; echo relinked > relinked.txt ;;
  setsid) env -i PATH="$PATH" setsid sh -c 'touch .up; while [ ! -f .checking ]; do sleep 0.01; done; echo "exit 0 # rewritten" > test/has.sh; touch .rewritten; exec sleep ${LEFTOVER}' </dev/null >/dev/null 2>&1 &
    while [ ! -f .up ]; do sleep 0.01; done; echo launched ;;
  checkout) t "echo pwned >> '$repo/README.md'"; t "echo pwned > '$repo/planted.txt'" ;;
  victim) echo mine > victim.txt ;;
  others) echo "listing:$(ls -A "$run_dir" 2>&1 | tr '\\n' ' ')"; t "echo pwned > '$run_dir/victim/pwned.txt'"; t "echo pwned > '$run_dir/s_victim/pwned.txt'" ;;
  ledger) echo "listing:$(ls -A "$LEDGER_DIR" 2>&1 | tr '\\n' ' ')"; t "echo pwned >> '$LEDGER_DIR/ledger.sqlite'"; t "rm '$LEDGER_DIR/ledger.sqlite'" ;;
  home) t "echo pwned >> '$HOME/.bashrc'"; t "mkdir -p '$HOME/.config/autostart' && echo x > '$HOME/.config/autostart/x'" ;;
esac
echo "done $attack"
`;

const ATTACKS = [
  "config",
  "hooks",
  "replace",
  "index",
  "exclude",
  "branch",
  "link",
  "setsid",
  "checkout",
  "victim",
  "others",
  "ledger",
  "home",
];

/** The check a setsid leftover would race: it says the checks run, then waits a moment for a
 *  rewrite (an unsealed leftover makes one), then runs the base's protected test. */
const RACED_CHECK = `touch .checking; i=0; while [ ! -f .rewritten ] && [ $i -lt 40 ]; do sleep 0.05; i=$((i+1)); done; grep -q 'test -f' test/has.sh`;

function graph(agent: string, sandbox?: string, attacks: readonly string[] = ATTACKS): string {
  const node = (id: string, kind: "agent" | "script") => {
    const how = kind === "agent" ? `kind: agent, harness: command, prompt: ${id.replace(/^s_/, "")}` : `kind: script, argv: ["${agent}"]`;
    const needs = id.endsWith("others") ? `, needs: [${id.startsWith("s_") ? "s_victim" : "victim"}]` : "";
    const checks = id.endsWith("setsid") ? `, success: { checks: [{ name: raced, run: "${RACED_CHECK.replaceAll('"', '\\"')}" }] }` : "";
    const sealed = sandbox ? `, sandbox: ${sandbox}` : "";
    return `  ${id}: { ${how}, env: [LEDGER_DIR], workspace: { mode: worktree, protect: ["test/**"], keep: always }${needs}${checks}${sealed} }\n`;
  };
  const ids = attacks.flatMap((a) => [a, `s_${a}`]);
  return `version: 1\nname: hostile\nconcurrency: 8\nnodes:\n${ids.map((id) => node(id, id.startsWith("s_") ? "script" : "agent")).join("")}`;
}

interface World {
  repo: string;
  home: string;
  ledger: string;
  agent: string;
}

function world(dir: string, name: string): World {
  const repo = makeRepo({ "test/has.sh": 'test -f "$1"\n', "README.md": "the user's project\n" }, `vouch-hostile-${name}-`);
  const home = join(dir, `${name}-home`);
  mkdirSync(home);
  writeFileSync(join(home, ".bashrc"), "# the user's shell\n");
  const ledger = join(dir, `${name}-ledger`);
  const agent = join(dir, `${name}-agent.sh`);
  writeFileSync(agent, HOSTILE);
  chmodSync(agent, 0o755);
  return { repo, home, ledger, agent };
}

async function attack(w: World, dir: string, args: string[] = [], attacks: readonly string[] = ATTACKS) {
  const file = join(dir, `${w.ledger.split("/").pop()}.yaml`);
  writeFileSync(file, graph(w.agent, args.includes("off") ? "off" : undefined, attacks));
  const r = await vouch(["run", file, "--json", ...args], {
    home: w.ledger,
    cwd: w.repo,
    env: { HOME: w.home, LEDGER_DIR: w.ledger, VOUCH_COMMAND: w.agent },
  });
  const events = parseNdjson(r.stdout);
  const finished = (id: string) => events.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === id)!;
  return { ...r, events, finished };
}

let dir: TempDir;
let sealed: World;
let before: Record<string, string>;
let ran: Awaited<ReturnType<typeof attack>>;
beforeAll(async () => {
  if (!HAVE_BWRAP) return;
  ensureBinary();
  dir = tempDir("hostile");
  sealed = world(dir.path, "sealed");
  await vouch(["runs"], { home: sealed.ledger }); // the ledger exists before the sittings look for it
  before = records(sealed.repo);
  ran = await attack(sealed, dir.path);
  if (ran.events.length === 0) throw new Error(`vouch run: exit ${ran.code}: ${ran.stderr}`);
}, 180_000);
afterAll(() => dir?.cleanup());

describe.skipIf(!HAVE_BWRAP)("sealed hostile sittings (agent and script, each in its own tree)", () => {
  test("every node recorded that it ran sealed", () => {
    for (const id of ATTACKS.flatMap((a) => [a, `s_${a}`])) expect(ran.finished(id).sealed, id).toBe(true);
  });

  test("the user's repository is byte-identical: config, hooks, refs, HEAD, index, info/exclude, worktrees, files", () => {
    expect(records(sealed.repo)).toEqual(before);
    expect(existsSync(join(sealed.repo, "planted.txt"))).toBe(false);
    expect(git(sealed.repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  test("writes to the repository's records, the checkout, other trees, the ledger and $HOME failed at the file system", () => {
    for (const a of ["config", "hooks", "replace", "exclude", "branch", "checkout", "others", "ledger", "home"]) {
      for (const id of [a, `s_${a}`]) {
        const out = ran.finished(id).result_tail ?? "";
        expect(out, id).toMatch(/Read-only file system|No such file or directory|Directory nonexistent|Permission denied/);
        expect(out, id).not.toContain("DID:");
        expect(out, id).toContain(`done ${a}`);
      }
    }
    // The user's other files: the ledger still opens and lists the run; the home's rc file is as it was.
    expect(readFileSync(join(sealed.home, ".bashrc"), "utf8")).toBe("# the user's shell\n");
    expect(existsSync(join(sealed.home, ".config"))).toBe(false);
    for (const id of ["ledger", "s_ledger"]) expect(ran.finished(id).result_tail?.split("\n")[0], id).toBe("listing:");
  });

  test("a sitting sees no other node's tree: vouch's folder shows only its own tree's mount point", () => {
    for (const id of ["others", "s_others"]) expect(ran.finished(id).result_tail?.split("\n")[0]).toBe(`listing:${id} `);
    for (const victim of ["victim", "s_victim"]) {
      const commit = ran.finished(victim).workspace!.commit;
      expect(git(sealed.repo, "ls-tree", "-r", "--name-only", commit).split("\n")).not.toContain("pwned.txt");
    }
  });

  test("an edit of a protected file hidden by an index flag of the tree's own git is failed/tampered", () => {
    for (const id of ["index", "s_index"]) {
      const f = ran.finished(id);
      expect([f.status, f.cause, f.workspace?.tampered], id).toEqual(["failed", "tampered", ["test/has.sh"]]);
    }
  });

  test("excludes, branch moves and a broken link in the tree's own git hide nothing from the recorded commit", () => {
    for (const id of ["exclude", "s_exclude"])
      expect(git(sealed.repo, "ls-tree", "-r", "--name-only", ran.finished(id).workspace!.commit), id).toContain("new.secret");
    for (const id of ["link", "s_link"]) {
      const f = ran.finished(id);
      expect(f.status, id).toBe("passed");
      expect(git(sealed.repo, "show", `${f.workspace!.commit}:relinked.txt`)).toBe("relinked\n");
    }
    for (const id of ["branch", "s_branch"]) {
      const ws = ran.finished(id).workspace!;
      expect(git(sealed.repo, "rev-parse", `refs/heads/${ws.branch}`).trim(), id).toBe(ws.commit);
    }
  });

  test("a setsid leftover is dead before the checks: the raced check passes on the base's test; none of its processes remain", () => {
    for (const id of ["setsid", "s_setsid"]) {
      const f = ran.finished(id);
      expect([f.status, f.qualifier], id).toEqual(["passed", "verified"]);
      expect(readFileSync(join(f.workspace!.path, "test", "has.sh"), "utf8")).toBe('test -f "$1"\n');
      expect(existsSync(join(f.workspace!.path, ".rewritten"))).toBe(false);
    }
    expect(processesWith(LEFTOVER)).toEqual([]);
  });

  test("vouch show and the plain lines say the run was sealed", async () => {
    const show = await vouch(["show", ran.events[0]!.run], { home: sealed.ledger });
    expect(show.stdout).toMatch(/^sandbox +26 sealed$/m);
  });
});

describe.skipIf(!HAVE_BWRAP)("the same attacks unsealed (--sandbox off): the assertions above can fail", () => {
  test("the repository's config, hooks, checkout and $HOME change; the setsid leftover outlives its sitting, yet the raced check passes on its own tree", async () => {
    const loose = world(dir.path, "loose");
    const was = records(loose.repo);
    // Not the replace refs: unsealed, their loop breaks vouch's own git for the other nodes (defence in depth is item 5's).
    const r = await attack(loose, dir.path, ["--sandbox", "off"], ["config", "hooks", "setsid", "checkout", "home"]);
    try {
      expect(r.finished("config").sealed).toBe(false);
      expect(r.finished("config").unsealed_reason).toBe("sandbox: off");
      const now = records(loose.repo);
      expect(now.config).not.toBe(was.config);
      expect(now.hooks).not.toBe(was.hooks);
      expect(readFileSync(join(loose.home, ".bashrc"), "utf8")).toContain("pwned");
      expect(readFileSync(join(loose.repo, "README.md"), "utf8")).toContain("pwned");
      // The leftover lives on (unsealed, with its environment cleared, nothing finds it), but the
      // check runs on the tree vouch builds from the recorded commit (ADR 0043): its .checking is
      // not the leftover's, and test/has.sh there is the base's. It passes, verified.
      expect(processesWith(LEFTOVER).length).toBeGreaterThan(0);
      expect([r.finished("setsid").status, r.finished("setsid").qualifier]).toEqual(["passed", "verified"]);
    } finally {
      for (const pid of processesWith(LEFTOVER)) process.kill(pid, "SIGKILL");
    }
  }, 180_000);
});
