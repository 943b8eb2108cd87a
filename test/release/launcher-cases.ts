// The npm launcher's behaviour through a real install, called by
// release.test.ts (which builds the release once): its messages when no
// binary fits, and how signals reach vouch through it.
import { describe, expect, test } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installGlobal, VERSION, type Prefix } from "./helpers.ts";

const SLOW_GRAPH = "version: 1\nname: slow\nnodes:\n  wait: { kind: script, run: 'sleep 600' }\n  done: { kind: end, needs: [wait] }\n";

/** Starts `vouch run slow.yaml --json` through the launcher, leading its own
 *  process group as a shell's foreground job does, and resolves once the script node has started. */
async function startSlowRun(prefix: Prefix, cwd: string) {
  writeFileSync(join(cwd, "slow.yaml"), SLOW_GRAPH);
  const child = Bun.spawn(["vouch", "run", "slow.yaml", "--json"], {
    cwd,
    env: prefix.env,
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  const reader = child.stdout.getReader();
  let out = "";
  while (!out.includes('"type":"node.started","node":"wait"')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`vouch ended before the script started:\n${out}`);
    out += new TextDecoder().decode(value);
  }
  const rest = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return out;
      out += new TextDecoder().decode(value);
    }
  })();
  return { child, output: async () => ({ code: await child.exited, out: await rest, err: await new Response(child.stderr).text() }) };
}

/** After a failed test: Ctrl-C to the group still running, so vouch stops its sleep too. */
function stopLeftover(child: { pid: number; exitCode: number | null; signalCode: unknown } | undefined): void {
  if (child && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, "SIGINT");
    } catch {
      // already gone
    }
  }
}

export function describeSignals(getPrefix: () => Prefix): void {
  describe("signals through the launcher", () => {
    test("SIGTERM sent to the launcher alone reaches vouch: the run is cancelled and recorded, exit 130", async () => {
      const cwd = mkdtempSync(join(tmpdir(), "vouch-sigterm-"));
      let run: Awaited<ReturnType<typeof startSlowRun>> | undefined;
      try {
        run = await startSlowRun(getPrefix(), cwd);
        process.kill(run.child.pid, "SIGTERM");
        const r = await run.output();
        expect(r.err).toContain("vouch: SIGTERM: cancelling the run");
        expect(r.code).toBe(130);
        expect(run.child.signalCode).toBeNull(); // the launcher ended with vouch's code, not killed by the signal
        expect(r.out.trim().split("\n").at(-1)).toContain('"type":"run.finished"');
      } finally {
        stopLeftover(run?.child);
        rmSync(cwd, { recursive: true, force: true });
      }
    }, 60_000);

    // What it cannot show: that Ctrl-C is not passed on as well (vouch would count it twice);
    // two SIGINTs close together often merge into one, so a test of that would pass either way.
    test("Ctrl-C to the whole process group: vouch cancels and records the run; the launcher waits and ends with its 130", async () => {
      const cwd = mkdtempSync(join(tmpdir(), "vouch-sigint-"));
      let run: Awaited<ReturnType<typeof startSlowRun>> | undefined;
      try {
        run = await startSlowRun(getPrefix(), cwd);
        process.kill(-run.child.pid, "SIGINT");
        const r = await run.output();
        expect(r.err).toContain("vouch: cancelling the run (children are stopped; Ctrl-C again to stop at once)");
        expect(r.code).toBe(130);
        // Bun reports a process killed by SIGINT as 130 too: the launcher must have exited, not died.
        expect(run.child.signalCode).toBeNull();
        expect(r.out.trim().split("\n").at(-1)).toMatch(/"type":"run.finished".*"status":"interrupted"/);
      } finally {
        stopLeftover(run?.child);
        rmSync(cwd, { recursive: true, force: true });
      }
    }, 60_000);
  });
}

export function describeLauncherMessages(pack: { wrapper: () => string; platform: (key: string) => string }): void {
  describe("the launcher when no binary fits: a message that says what to do, exit 3", () => {
    const versionOf = (prefix: Prefix, env: Record<string, string> = {}) => {
      const r = Bun.spawnSync(["vouch", "--version"], { cwd: prefix.path, env: { ...prefix.env, ...env }, stdout: "pipe", stderr: "pipe" });
      return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
    };

    test("the wrapper installed without its optional dependency", () => {
      const prefix = installGlobal([pack.wrapper()]);
      try {
        expect(prefix.install.code, prefix.install.err).toBe(0);
        const r = versionOf(prefix);
        expect(r.code).toBe(3);
        expect(r.out).toBe("");
        expect(r.err).toBe(
          "vouch: the package @vouch-cli/linux-x64, vouch's binary for linux-x64, is not installed\n" +
            `hint: it is an optional dependency of vouch-cli: install without --omit=optional or --no-optional (npm i -g vouch-cli@${VERSION}), or add it: npm i -g @vouch-cli/linux-x64@${VERSION}\n`,
        );
      } finally {
        prefix.cleanup();
      }
    }, 120_000);

    test("another platform's package installed instead (node_modules from another machine)", () => {
      // --force: npm refuses a package for another cpu named on the command line otherwise.
      const prefix = installGlobal([pack.wrapper(), pack.platform("darwin-arm64")], ["--force"]);
      try {
        expect(prefix.install.code, prefix.install.err).toBe(0);
        const r = versionOf(prefix);
        expect(r.code).toBe(3);
        expect(r.err).toContain(
          "is not installed\nhint: @vouch-cli/darwin-arm64 is installed instead: this node_modules was installed on another platform",
        );
      } finally {
        prefix.cleanup();
      }
    }, 120_000);

    test("a platform no package is built for (process.platform made freebsd before the launcher runs)", () => {
      const prefix = installGlobal([pack.wrapper()]);
      try {
        const fake = join(prefix.path, "freebsd.cjs");
        writeFileSync(fake, 'Object.defineProperty(process, "platform", { value: "freebsd" });\n');
        const r = versionOf(prefix, { NODE_OPTIONS: `--require ${fake}` });
        expect(r.code).toBe(3);
        expect(r.err).toBe(
          `vouch: no vouch binary is published for this platform (freebsd-${process.arch})\n` +
            "hint: vouch-cli has binaries for linux-x64, linux-arm64, darwin-arm64, darwin-x64\n" +
            'hint: on another platform, build vouch from source: see the README\'s "Install" section\n',
        );
      } finally {
        prefix.cleanup();
      }
    }, 120_000);
  });
}
