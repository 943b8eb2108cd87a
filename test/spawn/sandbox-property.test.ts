// A property over generated write targets (issue 26): a sealed process confined
// as a sitting in a tree of its own (confinementSpec over the real git records
// of a real repository) runs generated file operations — create, append,
// truncate, mkdir, remove, rename, chmod, a symbolic link made in its tree and
// written through — on paths in the user's checkout, the repository's .git,
// vouch's folder, a sibling tree, vouch's git dir of its own tree, the ledger,
// $HOME, /tmp, and relative escapes out of its tree. Whatever the operations,
// nothing outside the tree and the CLI's state folder changes, byte for byte.
import { afterAll, beforeAll, expect, test } from "vitest";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "../../src/spawn/process.ts";
import { confinementSpec } from "../../src/spawn/sandbox/confine.ts";
import { gitRecordsOf } from "../../src/spawn/sandbox/git-records.ts";
import { SandboxProbe } from "../../src/spawn/sandbox/probe.ts";
import type { SandboxSpec } from "../../src/spawn/sandbox/spec.ts";
import { realGit } from "../../src/workspace/git.ts";
import { makeRepo } from "../workspace/git-repo.ts";
import { HAVE_BWRAP, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir("vouch-sandbox-prop-");
let root = "";
let repo = "";
let tree = "";
let ledger = "";
let home = "";
let spec: SandboxSpec;
const outsideTmp = () => join("/tmp", `vouch-prop-outside-${process.pid}`);

beforeAll(async () => {
  if (!HAVE_BWRAP) return;
  root = realpathSync(dir.path);
  repo = makeRepo({ "src/a.ts": "export const a = 1;\n", "test/t.sh": "exit 0\n" }, "vouch-prop-repo-");
  tree = join(repo, ".vouch", "worktrees", "r", "n");
  await realGit.hideVouchDir(repo);
  await realGit.addWorktree(repo, tree, "vouch/r/n", "HEAD");
  await realGit.addWorktree(repo, join(repo, ".vouch", "worktrees", "r", "other"), "vouch/r/other", "HEAD");
  ledger = join(root, "ledger");
  home = join(root, "home");
  for (const d of [ledger, join(home, ".claude"), join(home, ".config")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(ledger, "ledger.sqlite"), "the run record");
  writeFileSync(join(home, ".bashrc"), "# rc\n");
  const probe = await new SandboxProbe({ PATH: TEST_ENV.PATH }).check();
  if (!probe.available) throw new Error(probe.reason);
  spec = confinementSpec({
    program: probe.program,
    tree,
    network: false,
    writable: [join(home, ".claude")],
    hide: [ledger],
    repository: gitRecordsOf(repo),
    around: [],
  });
}, 60_000);
afterAll(() => dir.cleanup());

/** Every path under `at` with what it is and holds; `skip` (the writable places) left out. */
function snapshot(at: string, skip: readonly string[]): string {
  const out: string[] = [];
  const walk = (p: string) => {
    if (skip.some((s) => p === s || p.startsWith(`${s}/`))) return;
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) out.push(`${p} -> ${readlinkSync(p)}`);
    else if (st.isDirectory()) {
      out.push(`${p}/ ${st.mode.toString(8)}`);
      for (const n of readdirSync(p).sort()) walk(join(p, n));
    } else out.push(`${p} ${st.mode.toString(8)} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`);
  };
  walk(at);
  return out.join("\n");
}

const name = fc.oneof(
  fc.constantFrom("x", ".hidden", "-rf", "pre-commit", "config", "index", "HEAD", "ledger.sqlite", ".bashrc", "a b", "ü", "..x"),
  fc.stringMatching(/^[A-Za-z0-9._ -]{1,12}$/).filter((s) => s !== "." && s !== ".."),
);
const place = fc.constantFrom(
  () => repo,
  () => join(repo, "src"),
  () => join(repo, ".git"),
  () => join(repo, ".git", "hooks"),
  () => join(repo, ".git", "refs", "heads"),
  () => join(repo, ".git", "info"),
  () => join(repo, ".vouch"),
  () => join(repo, ".vouch", "worktrees", "r", "other"),
  () => `${tree}.git`,
  () => ledger,
  () => home,
  () => join(home, ".config"),
  () => outsideTmp(),
  () => join(tree, "..", ".."),
  () => join(tree, "..", "..", "..", ".."),
);
const op = fc.constantFrom("create", "append", "truncate", "mkdir", "remove", "rename-in", "chmod", "symlink-through");

const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

function command(kind: string, target: string, i: number): string {
  switch (kind) {
    case "create":
      return `echo pwned > ${q(target)}`;
    case "append":
      return `echo pwned >> ${q(target)}`;
    case "truncate":
      return `: > ${q(target)}`;
    case "mkdir":
      return `mkdir -p ${q(target)}`;
    case "remove":
      return `rm -rf ${q(target)}`;
    case "rename-in":
      return `echo pwned > mine${i} && mv mine${i} ${q(target)}`;
    case "chmod":
      return `chmod 777 ${q(target)}`;
    default:
      // A link in the tree (allowed) to the target, then a write through it (must not land).
      return `ln -sf ${q(target)} link${i} && echo pwned > link${i}`;
  }
}

test.skipIf(!HAVE_BWRAP)(
  "property: generated writes outside the tree change nothing outside it, byte for byte",
  async () => {
    const skip = [tree, join(home, ".claude")];
    const before = [snapshot(repo, skip), snapshot(ledger, []), snapshot(home, skip)];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(op, place, name), { minLength: 1, maxLength: 10 }), async (ops) => {
        const script = ops.map(([kind, at, n], i) => `(${command(kind, join(at(), n), i)}) 2>/dev/null`).join("; ");
        const r = await runProcess({ argv: ["/bin/sh", "-c", `${script}; echo ran`] }, { cwd: tree, env: TEST_ENV, sandbox: spec });
        expect(r.stdoutTail).toBe("ran\n");
        expect([snapshot(repo, skip), snapshot(ledger, []), snapshot(home, skip)]).toEqual(before);
        expect(existsSync(outsideTmp())).toBe(false);
      }),
      { numRuns: 40 },
    );
  },
  120_000,
);

test.skipIf(!HAVE_BWRAP)("the same writes in the tree and the CLI's state folder do land (the property is not vacuous)", async () => {
  const r = await runProcess(
    { argv: ["/bin/sh", "-c", `echo mine > t.txt && echo state > ${q(join(home, ".claude", "s.json"))} && echo ok`] },
    { cwd: tree, env: TEST_ENV, sandbox: spec },
  );
  expect(r.stdoutTail).toBe("ok\n");
  expect(readFileSync(join(tree, "t.txt"), "utf8")).toBe("mine\n");
  expect(readFileSync(join(home, ".claude", "s.json"), "utf8")).toBe("state\n");
});
