// The SandboxSpec → bubblewrap command line (ADR 0040), pure: the order of the
// mounts decides what a sealed process sees, so it is what these hold.
import { afterAll, describe, expect, test } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { bwrapArgs, mountOrder, SANDBOX_INIT, sealedArgv, type PathKind } from "../../src/spawn/sandbox/bwrap-argv.ts";
import { explain } from "../../src/spawn/sandbox/probe.ts";
import type { SandboxSpec } from "../../src/spawn/sandbox/spec.ts";

const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  program: "/usr/bin/bwrap",
  writable: [],
  readOnly: [],
  hidden: [],
  network: true,
  ...over,
});
const dirs = (): PathKind => "dir";
/** A folder under the host's /tmp (where the private /tmp binds back what a command names). */
const dir = { path: mkdtempSync("/tmp/vouch-argv-") };
afterAll(() => rmSync(dir.path, { recursive: true, force: true }));

describe("bwrapArgs", () => {
  test("always: a pid namespace that dies with vouch, no capabilities, a read-only root, own /dev and /proc", () => {
    const a = bwrapArgs(spec(), "/w", dirs);
    for (const f of ["--die-with-parent", "--unshare-pid", "--as-pid-1", "--unshare-ipc"]) expect(a).toContain(f);
    expect(a.join(" ")).toContain("--cap-drop ALL");
    expect(a.join(" ")).toContain("--ro-bind / / --dev /dev --proc /proc");
    expect(a.slice(-2)).toEqual(["--chdir", "/w"]);
    // No new session: the command must stay in the process group vouch signals (ADR 0040).
    expect(a).not.toContain("--new-session");
  });

  test("as root: a user namespace of ours with a uid that is not 0 and no capability (never CAP_SETFCAP); as anyone else, neither", () => {
    const root = bwrapArgs(spec(), "/w", dirs, true).join(" ");
    expect(root).toContain("--cap-drop ALL --unshare-user --uid 1000 --gid 1000");
    expect(root).not.toContain("--cap-add");
    const user = bwrapArgs(spec(), "/w", dirs, false);
    expect(user).not.toContain("--unshare-user");
    expect(user).not.toContain("--cap-add");
  });

  test("network: false is its own network namespace; true shares the host's", () => {
    expect(bwrapArgs(spec({ network: false }), "/w", dirs)).toContain("--unshare-net");
    expect(bwrapArgs(spec({ network: true }), "/w", dirs)).not.toContain("--unshare-net");
  });

  test("a tree inside a hidden folder is bound back after the tmpfs, and the tmpfs is made read-only last", () => {
    const a = bwrapArgs(
      spec({ hidden: ["/repo/.vouch"], writable: ["/repo/.vouch/worktrees/r/n"], readOnly: ["/repo/.git/objects"] }),
      "/repo/.vouch/worktrees/r/n",
      dirs,
    );
    const at = (...xs: string[]) => a.findIndex((_, i) => xs.every((x, j) => a[i + j] === x));
    expect(at("--tmpfs", "/repo/.vouch")).toBeGreaterThan(-1);
    expect(at("--bind", "/repo/.vouch/worktrees/r/n", "/repo/.vouch/worktrees/r/n")).toBeGreaterThan(at("--tmpfs", "/repo/.vouch"));
    expect(at("--remount-ro", "/repo/.vouch")).toBeGreaterThan(at("--bind", "/repo/.vouch/worktrees/r/n", "/repo/.vouch/worktrees/r/n"));
    expect(at("--ro-bind", "/repo/.git/objects", "/repo/.git/objects")).toBeGreaterThan(-1);
  });

  test("a hidden file is an empty file; a hidden or read-only path that does not exist is skipped", () => {
    const kind = (p: string): PathKind => (p === "/h/creds" ? "file" : p === "/h/dir" ? "dir" : null);
    const a = bwrapArgs(spec({ hidden: ["/h/creds", "/h/none", "/h/dir"], readOnly: ["/h/gone"] }), "/", kind).join(" ");
    expect(a).toContain("--ro-bind /dev/null /h/creds");
    expect(a).toContain("--tmpfs /h/dir");
    expect(a).not.toContain("/h/none");
    expect(a).not.toContain("/h/gone");
  });

  test("its own /tmp: the scratch folder bound at /tmp before the spec's paths, so a tree under /tmp is bound over it", () => {
    const a = bwrapArgs(
      spec({ tmp: "/tmp/vouch-tmp-1", writable: ["/tmp/repo/.vouch/trees/t"], readOnly: ["/tmp/repo"] }),
      "/w",
      dirs,
    ).join(" ");
    expect(a).toContain(
      "--proc /proc --bind /tmp/vouch-tmp-1 /tmp --ro-bind /tmp/repo /tmp/repo --bind /tmp/repo/.vouch/trees/t /tmp/repo/.vouch/trees/t",
    );
    expect(bwrapArgs(spec(), "/w", dirs).join(" ")).not.toContain(" /tmp");
  });

  test("sealedArgv with its own /tmp binds back, read-only, the folder of a file its command line names under the host's /tmp", () => {
    const script = join(realpathSync(dir.path), "run.sh");
    writeFileSync(script, "true\n");
    const all = sealedArgv(spec({ tmp: "/tmp/vouch-tmp-2" }), "/w", [script, "-x", "/nowhere/at/all"], dirs);
    const a = all.slice(0, all.indexOf("--")).join(" ");
    expect(a).toContain(`--ro-bind ${realpathSync(dir.path)} ${realpathSync(dir.path)}`);
    expect(a).not.toContain("/nowhere");
  });

  test("what the command line names inside a hidden folder (the ledger) or a writable one is not bound back read-only", () => {
    const top = realpathSync(dir.path);
    mkdirSync(join(top, "ledger", "sub"), { recursive: true });
    mkdirSync(join(top, "tree", "x"), { recursive: true });
    const hidden = join(top, "ledger");
    const tree = join(top, "tree");
    const all = sealedArgv(spec({ tmp: "/tmp/vouch-tmp-3", hidden: [hidden], writable: [tree] }), "/w", [
      "/bin/sh",
      "-c",
      `ls ${hidden}/sub ${tree}/x`,
    ]);
    const a = all.slice(0, all.indexOf("--")).join(" ");
    expect(a).not.toContain(`--ro-bind ${hidden}/sub`);
    expect(a).not.toContain(`--ro-bind ${tree}`);
    expect(a).toContain(`--tmpfs ${hidden}`);
  });

  test("a relative path is refused (bubblewrap would read it against its own folder)", () => {
    expect(() => bwrapArgs(spec({ writable: ["tree"] }), "/w", dirs)).toThrow(/not absolute/);
    expect(() => bwrapArgs(spec({ hidden: ["/a/../b"] }), "/w", dirs)).toThrow(/not absolute|\.\./);
  });

  test("sealedArgv: bwrap, its arguments, --, our init, the command as given", () => {
    const argv = sealedArgv(spec(), "/w", ["/bin/sh", "-c", "--not-an-option"], dirs);
    expect(argv[0]).toBe("/usr/bin/bwrap");
    expect(argv.slice(argv.indexOf("--"))).toEqual(["--", ...SANDBOX_INIT, "/bin/sh", "-c", "--not-an-option"]);
  });
});

describe("mountOrder", () => {
  test("at one path the most restrictive wins: hidden over read-only over writable", () => {
    expect(mountOrder({ writable: ["/a"], readOnly: ["/a"], hidden: [] })).toEqual([{ path: "/a", as: "readOnly" }]);
    expect(mountOrder({ writable: ["/a/"], readOnly: [], hidden: ["/a"] })).toEqual([{ path: "/a", as: "hidden" }]);
  });

  const segment = fc.constantFrom("a", "b", "c", ".git", "x y");
  const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `/${s.join("/")}`);
  test("property: every path comes after every path that holds it", () => {
    fc.assert(
      fc.property(fc.array(path), fc.array(path), fc.array(path), (writable, readOnly, hidden) => {
        const order = mountOrder({ writable, readOnly, hidden }).map((e) => e.path);
        expect(new Set(order).size).toBe(order.length);
        order.forEach((p, i) => {
          for (const later of order.slice(i + 1)) expect(p.startsWith(`${later}/`)).toBe(false);
        });
      }),
    );
  });
});

describe("the probe's reading of bubblewrap's own failure (explain)", () => {
  test("namespaces refused (user namespaces switched off) is named so, with what to change", () => {
    for (const said of [
      "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.",
      "bwrap: setting up uid map: Permission denied",
      "bwrap: Creating new namespace failed: Operation not permitted",
    ]) {
      const r = explain(said);
      expect(r.reason, said).toMatch(/^bubblewrap cannot create the namespaces it needs \(user namespaces disabled\?\): bwrap: /);
      expect(r.hint).toContain("kernel.unprivileged_userns_clone=1");
    }
  });

  test("anything else is bubblewrap's own words", () => {
    expect(explain("bwrap: Can't mount proc on /newroot/proc: Device or resource busy")).toEqual({
      reason: "bubblewrap failed: bwrap: Can't mount proc on /newroot/proc: Device or resource busy",
      hint: "run `bwrap --ro-bind / / true` to see bubblewrap's own message",
    });
  });
});
