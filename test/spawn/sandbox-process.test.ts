// Sealed processes through the one seam, with the real bubblewrap (ADR 0040):
// what a sealed process can write, what it cannot see, that nothing it starts
// outlives it (counted), that a cap's SIGTERM still gives it its grace period,
// and that a sandbox that cannot be set up is a failed start, not an exit.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runProcess } from "../../src/spawn/process.ts";
import { sealedArgv } from "../../src/spawn/sandbox/bwrap-argv.ts";
import { Confiner } from "../../src/spawn/sandbox/confine.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { SandboxProbe, type SandboxProbeResult } from "../../src/spawn/sandbox/probe.ts";
import type { SandboxSpec } from "../../src/spawn/sandbox/spec.ts";
import { HAVE_BWRAP, processesWith, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir("vouch-sandbox-test-");
const root = realpathSync(dir.path);
let probe: SandboxProbeResult;
let program = "";
beforeAll(async () => {
  if (!HAVE_BWRAP) return;
  probe = await new SandboxProbe({ PATH: TEST_ENV.PATH }).check();
  if (!probe.available) throw new Error(`bubblewrap does not work here: ${probe.reason} (${probe.hint})`);
  program = probe.program;
});
afterAll(() => dir.cleanup());

function layout(name: string) {
  const repo = join(root, name);
  const tree = join(repo, ".vouch", "worktrees", "r", "n");
  mkdirSync(tree, { recursive: true });
  mkdirSync(join(repo, ".git", "objects"), { recursive: true });
  writeFileSync(join(repo, ".git", "config"), "[core]\n");
  writeFileSync(join(repo, ".vouch", "ledger.db"), "secret");
  writeFileSync(join(repo, "checkout.txt"), "user's file\n");
  const spec: SandboxSpec = {
    program,
    writable: [tree],
    readOnly: [join(repo, ".git", "objects")],
    hidden: [join(repo, ".vouch"), join(repo, ".git")],
    network: true,
  };
  return { repo, tree, spec };
}

const sh = (script: string) => ({ argv: ["/bin/sh", "-c", script] });

describe.skipIf(!HAVE_BWRAP)("what a sealed process may reach", () => {
  test("a sandbox of its own (codex makes one on bubblewrap) works inside the seal, whoever vouch runs as", async () => {
    const { tree, spec } = layout("nested");
    const inner = `${program} --unshare-user --unshare-pid --dev-bind / / /bin/sh -c 'echo nested-ok'`;
    const r = await runProcess(sh(`${inner} 2>&1`), { cwd: tree, env: TEST_ENV, sandbox: spec });
    expect(r.stdoutTail).toContain("nested-ok");
    expect(r.exit).toBe(0);
  });

  test("its tree is writable; the checkout is read-only (EROFS); hidden folders are empty; bound-back objects are readable", async () => {
    const { repo, tree, spec } = layout("reach");
    const script = [
      "echo made > made.txt && echo tree-ok",
      `(echo x >> ${repo}/checkout.txt) 2>&1 || echo checkout-refused`,
      `ls -A ${repo}/.vouch | tr '\\n' ' '; echo '|vouch-listing'`,
      `test -e ${repo}/.git/config && echo config-seen || echo config-absent`,
      `test -d ${repo}/.git/objects && echo objects-seen`,
      `touch ${repo}/.vouch/planted 2>&1 || echo hidden-is-read-only`,
    ].join("; ");
    const r = await runProcess(sh(script), { cwd: tree, env: TEST_ENV, sandbox: spec });
    expect(r.exit).toBe(0);
    expect(r.stdoutTail).toContain("tree-ok");
    expect(readFileSync(join(tree, "made.txt"), "utf8")).toBe("made\n");
    expect(r.stdoutTail).toMatch(/Read-only file system[\s\S]*checkout-refused/);
    expect(readFileSync(join(repo, "checkout.txt"), "utf8")).toBe("user's file\n");
    // Only the mount point of the tree's own path shows inside the hidden folder.
    expect(r.stdoutTail).toContain("worktrees |vouch-listing");
    expect(r.stdoutTail).toContain("config-absent");
    expect(r.stdoutTail).toContain("objects-seen");
    expect(r.stdoutTail).toContain("hidden-is-read-only");
    expect(existsSync(join(repo, ".vouch", "planted"))).toBe(false);
    expect(readFileSync(join(repo, ".vouch", "ledger.db"), "utf8")).toBe("secret");
  });

  test("network: false leaves only the loopback interface", async () => {
    const { tree, spec } = layout("net");
    const off = await runProcess(sh("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"), {
      cwd: tree,
      env: TEST_ENV,
      sandbox: { ...spec, network: false },
    });
    expect(off.stdoutTail.trim().split("\n")).toEqual(["lo"]);
    const on = await runProcess(sh("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"), { cwd: tree, env: TEST_ENV, sandbox: spec });
    expect(on.stdoutTail.trim().split("\n").length).toBeGreaterThan(1);
  });

  test("its own pid namespace: it sees only its own processes, and has no capabilities (as root too: not uid 0, in a user namespace of its own)", async () => {
    const { tree, spec } = layout("pids");
    const r = await runProcess(sh("ls /proc | grep -c '^[0-9]'; grep CapEff /proc/self/status; readlink /proc/self/ns/user; id -u"), {
      cwd: tree,
      env: TEST_ENV,
      sandbox: spec,
    });
    const [count, caps, userNs, uid] = r.stdoutTail.trim().split("\n");
    // bwrap's init, the shell, ls, grep: a handful, never the host's hundreds.
    expect(Number(count)).toBeLessThan(8);
    // No capability at all: CAP_SETFCAP in a namespace whose root is the host's root would let a
    // sitting leave a file with capabilities that hold on the host.
    expect(caps).toMatch(/CapEff:\s+0+$/);
    if (process.getuid?.() === 0) {
      expect(userNs).not.toBe(readlinkSync("/proc/self/ns/user"));
      expect(uid).toBe("1000");
    }
  });
});

describe.skipIf(!HAVE_BWRAP)("a sealed process runs as it would unsealed", () => {
  test("stdin carries the prompt (text and file), the exit status is the command's", async () => {
    const { tree, spec } = layout("stdio");
    const text = await runProcess({ argv: ["/bin/cat"] }, { cwd: tree, env: TEST_ENV, sandbox: spec, stdin: "the prompt\n" });
    expect(text.stdoutTail).toBe("the prompt\n");
    writeFileSync(join(tree, "state.json"), '{"a":1}');
    const file = await runProcess({ argv: ["/bin/cat"] }, { cwd: tree, env: TEST_ENV, sandbox: spec, stdinFile: join(tree, "state.json") });
    expect(file.stdoutTail).toBe('{"a":1}');
    const seven = await runProcess(sh("echo out; echo err >&2; exit 7"), { cwd: tree, env: TEST_ENV, sandbox: spec });
    expect(seven).toMatchObject({ exit: 7, terminationReason: "exit", stdoutTail: "out\n", stderrTail: "err\n" });
  });
});

describe.skipIf(!HAVE_BWRAP)("nothing outlives a sealed process", () => {
  test("a setsid daemon, a double fork and a nohup child are all gone when runProcess returns (counted)", async () => {
    const { tree, spec } = layout("leftovers");
    // Each one says it is running (its own session, a double fork, nohup) before the script ends.
    const script = (marker: string) => {
      const daemon = (how: string, n: number) => `${how} sh -c 'echo $$ > up${n}; exec sleep ${marker}${n}' </dev/null >/dev/null 2>&1`;
      const wait = (n: number) => `while [ ! -s up${n} ]; do sleep 0.01; done`;
      return `rm -f up1 up2 up3; ${daemon("setsid", 1)} & (${daemon("", 2)} &) ; ${daemon("nohup", 3)} & ${wait(1)}; ${wait(2)}; ${wait(3)}; echo started`;
    };
    const stamp = `${process.pid}${Date.now() % 100000}`;
    // Unsealed first: the setsid daemon outlives the group kill (what sealing is for).
    const loose = await runProcess(sh(script(`31.${stamp}`)), { cwd: tree, env: TEST_ENV });
    expect(loose.stdoutTail).toContain("started");
    const left = processesWith(`sleep\0${`31.${stamp}`}`);
    for (const pid of left) process.kill(pid, "SIGKILL");
    expect(left.length).toBeGreaterThanOrEqual(1);

    const sealed = await runProcess(sh(script(`32.${stamp}`)), { cwd: tree, env: TEST_ENV, sandbox: spec });
    expect(sealed.stdoutTail).toContain("started");
    // No waiting: the namespace's init reaps every member before it exits, and bwrap exits after it.
    expect(processesWith(`sleep\0${`32.${stamp}`}`)).toEqual([]);
  });

  test("a wall cap's SIGTERM reaches the command, which gets its grace period (bwrap itself is spared until the SIGKILL)", async () => {
    const { tree, spec } = layout("grace");
    const script = "trap 'echo got-term; sleep 0.3; echo graceful > graceful.txt; exit 0' TERM; echo ready; while :; do sleep 0.05; done";
    const r = await runProcess(sh(script), { cwd: tree, env: TEST_ENV, sandbox: spec, wallMs: 300, graceMs: 5000 });
    expect(r.terminationReason).toBe("wall");
    expect(r.stdoutTail).toContain("got-term");
    expect(readFileSync(join(tree, "graceful.txt"), "utf8")).toBe("graceful\n");
  });

  test("a command that ignores SIGTERM is killed with its namespace after the grace period", async () => {
    const { tree, spec } = layout("stubborn");
    const marker = `32.${process.pid}${Date.now() % 100000}`;
    const r = await runProcess(sh(`trap '' TERM; setsid sleep ${marker} & while :; do sleep 0.05; done`), {
      cwd: tree,
      env: TEST_ENV,
      sandbox: spec,
      wallMs: 200,
      graceMs: 200,
    });
    expect(r.terminationReason).toBe("wall");
    expect(processesWith(marker)).toEqual([]);
  });
});

// CI and this machine run as root; users are ordinary users, for whom bubblewrap makes a user
// namespace of its own. The same command line, started as `nobody` (setpriv drops to it).
describe.runIf(HAVE_BWRAP && process.getuid?.() === 0 && Bun.which("setpriv") !== null)("as an ordinary user (user namespaces)", () => {
  test("the tree is writable, the checkout read-only, nothing outlives the process", async () => {
    const { repo, tree, spec } = layout("unprivileged");
    for (const d of [root, repo, join(repo, ".vouch"), join(repo, ".vouch", "worktrees"), join(repo, ".vouch", "worktrees", "r"), tree])
      chmodSync(d, 0o777);
    chmodSync(join(repo, "checkout.txt"), 0o666);
    const marker = `34.${process.pid}${Date.now() % 100000}`;
    const script = `id -u; echo ok > mine.txt && echo tree-ok; (echo x >> ${repo}/checkout.txt) 2>&1; setsid sh -c 'echo $$ > up; exec sleep ${marker}' </dev/null >/dev/null 2>&1 & while [ ! -s up ]; do sleep 0.01; done`;
    const argv = [
      "setpriv",
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      "--",
      // Built for the user it runs as (nobody), not for this root test process.
      ...sealedArgv(spec, tree, ["/bin/sh", "-c", script], undefined, false),
    ];
    const r = await runProcess({ argv }, { cwd: tree, env: TEST_ENV });
    expect(r.stdoutTail.split("\n")[0]).toBe("65534");
    expect(r.stdoutTail).toContain("tree-ok");
    expect(r.stdoutTail).toContain("Read-only file system");
    expect(readFileSync(join(repo, "checkout.txt"), "utf8")).toBe("user's file\n");
    expect(processesWith(marker)).toEqual([]);
  });
});

describe.skipIf(!HAVE_BWRAP)("a sandbox that cannot be set up", () => {
  test("is a failed start with bubblewrap's words, not an exit 1 of the command", async () => {
    const { tree, spec } = layout("setup");
    const r = await runProcess(sh("echo ran"), {
      cwd: tree,
      env: TEST_ENV,
      sandbox: { ...spec, writable: [...spec.writable, join(root, "no-such-folder")] },
    });
    expect(r.terminationReason).toBe("spawn_failed");
    expect(r.spawnError).toMatch(/^the sandbox could not be set up: .*no-such-folder/);
    expect(r.stdoutTail).toBe("");
  });

  test("a command that exits 1 by itself stays an exit 1", async () => {
    const { tree, spec } = layout("exit1");
    const r = await runProcess(sh("echo 'not bwrap: x' >&2; exit 1"), { cwd: tree, env: TEST_ENV, sandbox: spec });
    expect(r.terminationReason).toBe("exit");
    expect(r.exit).toBe(1);
  });
});

describe.skipIf(!HAVE_BWRAP)("the probe", () => {
  test("here: bubblewrap works, by absolute path, with its version", () => {
    expect(probe).toMatchObject({
      available: true,
      program: expect.stringMatching(/^\/.*bwrap$/),
      version: expect.stringMatching(/bubblewrap \d/),
    });
  });

  test("no bubblewrap on PATH: the reason and how to install it", async () => {
    const r = await new SandboxProbe({ PATH: join(root, "empty-path") }).check();
    expect(r).toMatchObject({
      available: false,
      reason: expect.stringContaining("not installed"),
      hint: expect.stringContaining("apt-get install bubblewrap"),
    });
  });

  test("another platform: sealing needs Linux", async () => {
    const r = await new SandboxProbe({ PATH: TEST_ENV.PATH }, "darwin").check();
    expect(r).toMatchObject({ available: false, reason: expect.stringContaining("needs Linux") });
  });

  test("asked twice in a session, it probes once", async () => {
    const p = new SandboxProbe({ PATH: TEST_ENV.PATH });
    expect(p.check()).toBe(p.check());
  });
});

describe.skipIf(!HAVE_BWRAP)("sockets", () => {
  test("a Unix socket stays reachable through a read-only bind unless hidden; hidden, it is gone", async () => {
    const { tree, spec } = layout("sockets");
    const sock = join(root, "sockets", "agent.sock");
    mkdirSync(join(root, "sockets"), { recursive: true });
    const server = Bun.listen({ unix: sock, socket: { data: (s) => void s.end() } });
    try {
      const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${sock}'); print('connected')" 2>&1 | tail -1`;
      const seen = await runProcess(sh(connect), { cwd: tree, env: TEST_ENV, sandbox: { ...spec, network: false } });
      expect(seen.stdoutTail).toBe("connected\n");
      const hidden = await runProcess(sh(connect), {
        cwd: tree,
        env: TEST_ENV,
        sandbox: { ...spec, network: false, hidden: [...spec.hidden, sock] },
      });
      expect(hidden.stdoutTail).toMatch(/ConnectionRefusedError|FileNotFoundError|Connection refused/);
    } finally {
      server.stop(true);
    }
  });

  test("a shared folder's sitting: a .git planted in a subfolder does not move what is hidden (the repository's .vouch stays hidden)", async () => {
    const repo = join(root, "planted");
    const sub = join(repo, "pkg");
    mkdirSync(join(repo, ".vouch", "worktrees", "other"), { recursive: true });
    writeFileSync(join(repo, ".vouch", "worktrees", "other", "secret.txt"), "another node's tree\n");
    mkdirSync(join(sub, ".git"), { recursive: true });
    mkdirSync(join(repo, ".git"), { recursive: true });
    const confiner = new Confiner({ probe: new SandboxProbe({ PATH: TEST_ENV.PATH }), hide: [], supervisor: new ProcessSupervisor() });
    const c = await confiner.open({ tree: sub, network: false }, TEST_ENV);
    if ("error" in c) throw new Error(c.error);
    try {
      expect(c.spec.hidden).toEqual(expect.arrayContaining([join(repo, ".vouch"), join(sub, ".vouch")]));
      expect(c.spec.readOnly).toEqual(expect.arrayContaining([join(repo, ".git"), join(sub, ".git")]));
      const r = await runProcess(sh(`cat ${repo}/.vouch/worktrees/other/secret.txt 2>&1 || echo not-seen`), {
        cwd: sub,
        env: c.env,
        sandbox: c.spec,
      });
      expect(r.stdoutTail).toContain("not-seen");
      expect(r.stdoutTail).not.toContain("another node's tree");
    } finally {
      await c.release();
    }
  });

  test("a .git file a sitting writes cannot name a hidden folder back into sight (review: it bound the ledger's home back read-only)", async () => {
    const folder = join(root, "gitdir-trick");
    const home = join(root, "gitdir-trick-home");
    mkdirSync(join(home, "inner"), { recursive: true });
    writeFileSync(join(home, "inner", "ledger.sqlite"), "the ledger\n");
    mkdirSync(join(folder, "a"), { recursive: true });
    mkdirSync(join(folder, "b"), { recursive: true });
    // One names the hidden folder (a git dir must be a folder), one a file inside it.
    writeFileSync(join(folder, "a", ".git"), `gitdir: ${join(home, "inner")}\n`);
    writeFileSync(join(folder, "b", ".git"), `gitdir: ${join(home, "inner", "ledger.sqlite")}\n`);
    const confiner = new Confiner({ probe: new SandboxProbe({ PATH: TEST_ENV.PATH }), hide: [home], supervisor: new ProcessSupervisor() });
    for (const sub of ["a", "b"]) {
      const c = await confiner.open({ tree: join(folder, sub), network: false }, TEST_ENV);
      if ("error" in c) throw new Error(c.error);
      try {
        expect(
          c.spec.readOnly.filter((p) => p.startsWith(home)),
          sub,
        ).toEqual([]);
        const r = await runProcess(sh(`cat ${home}/inner/ledger.sqlite 2>&1 || echo not-seen`), {
          cwd: join(folder, sub),
          env: c.env,
          sandbox: c.spec,
        });
        expect(r.stdoutTail, sub).toContain("not-seen");
        expect(r.stdoutTail, sub).not.toContain("the ledger");
      } finally {
        await c.release();
      }
    }
  });

  test("the session's confiner hides the container daemons' sockets and the per-user runtime folders", async () => {
    const { tree } = layout("confiner-sockets");
    const confiner = new Confiner({ probe: new SandboxProbe({ PATH: TEST_ENV.PATH }), hide: [], supervisor: new ProcessSupervisor() });
    const c = await confiner.open({ tree, network: true }, TEST_ENV);
    if ("error" in c) throw new Error(c.error);
    try {
      expect(c.spec.hidden).toEqual(expect.arrayContaining(["/run/docker.sock", "/run/containerd", "/run/user"]));
      expect(c.spec.tmp).toBe(c.scratch);
      expect(c.env.TMPDIR).toBe("/tmp");
    } finally {
      await c.release();
    }
    expect(existsSync(c.scratch)).toBe(false);
  });

  test("the confiner's process has a /tmp of its own: it writes and reads it, the host's /tmp gets nothing and shows only what its environment names", async () => {
    const { tree } = layout("own-tmp");
    const named = realpathSync(mkdtempSync("/tmp/vouch-named-"));
    const unnamed = realpathSync(mkdtempSync("/tmp/vouch-unnamed-"));
    writeFileSync(join(named, "state.json"), "handed over\n");
    writeFileSync(join(unnamed, "secret"), "not yours\n");
    const confiner = new Confiner({ probe: new SandboxProbe({ PATH: TEST_ENV.PATH }), hide: [], supervisor: new ProcessSupervisor() });
    const c = await confiner.open(
      { tree, network: false },
      {
        ...TEST_ENV,
        VOUCH_STATE_FILE: join(named, "state.json"),
        // A variable that names the tree (writable) must not make it read-only.
        VOUCH_WORKSPACE: tree,
      },
    );
    if ("error" in c) throw new Error(c.error);
    const mark = `/tmp/vouch-own-tmp-${process.pid}`;
    try {
      const script = `echo mine > ${mark} && cat ${mark} && cat "$VOUCH_STATE_FILE" && echo "TMPDIR=$TMPDIR" && ls /tmp; echo x > ${named}/new 2>&1 || echo read-only; echo t > "$VOUCH_WORKSPACE/t.txt"`;
      const r = await runProcess(sh(script), { cwd: tree, env: c.env, sandbox: c.spec });
      expect(r.exit, r.stderrTail).toBe(0);
      expect(r.stdoutTail).toContain("mine\nhanded over\nTMPDIR=/tmp\n");
      // /tmp holds what the process wrote and the mount points of what it was handed, no more.
      expect(r.stdoutTail).not.toContain(unnamed.slice("/tmp/".length));
      expect(r.stdoutTail).toContain(named.slice("/tmp/".length));
      expect(r.stdoutTail).toContain("read-only");
      expect(readFileSync(join(tree, "t.txt"), "utf8")).toBe("t\n");
      expect(existsSync(mark)).toBe(false);
      expect(readFileSync(join(c.scratch, mark.slice("/tmp/".length)), "utf8")).toBe("mine\n");
    } finally {
      await c.release();
      rmSync(named, { recursive: true, force: true });
      rmSync(unnamed, { recursive: true, force: true });
    }
    expect(existsSync(c.scratch)).toBe(false);
  });

  // Found by running the suite from a clone in /tmp whose clis/node_modules is a link to a folder
  // outside /tmp: every sealed ACP agent died at start (its program's path was not there). A path
  // handed in through a link keeps working: the real folder before the first link is bound back.
  test("a program named by a path under /tmp that goes through a link out of /tmp still runs sealed", async () => {
    const { tree } = layout("tmp-link");
    const outside = realpathSync(mkdtempSync("/var/tmp/vouch-outside-"));
    const project = realpathSync(mkdtempSync("/tmp/vouch-linked-"));
    writeFileSync(join(outside, "tool.sh"), "echo tool ran\n");
    mkdirSync(join(project, "clis"));
    symlinkSync(outside, join(project, "clis", "node_modules"));
    const confiner = new Confiner({ probe: new SandboxProbe({ PATH: TEST_ENV.PATH }), hide: [], supervisor: new ProcessSupervisor() });
    const c = await confiner.open({ tree, network: false }, TEST_ENV);
    if ("error" in c) throw new Error(c.error);
    try {
      const r = await runProcess(
        { argv: ["/bin/sh", join(project, "clis", "node_modules", "tool.sh")] },
        { cwd: tree, env: c.env, sandbox: c.spec },
      );
      expect(r.stderrTail).toBe("");
      expect([r.exit, r.stdoutTail]).toEqual([0, "tool ran\n"]);
    } finally {
      await c.release();
      rmSync(project, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
