// A Redis with a password (issue 27, item 11; ADR 0045) through the real binary: the
// password comes from the environment (VOUCH_REDIS_PASSWORD) or a file
// (VOUCH_REDIS_PASSWORD_FILE), never from the command line, where `ps` shows it to
// every user of the machine. A URL holding one is refused before anything connects.
import { afterAll, describe, expect, test } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanEnv, tempDir, vouch } from "../e2e/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, FLEET_ENV, of, useRedis, WorkerProc } from "./fleet.ts";

const PASSWORD = "pw-5e0b8f1c2a7d";
/** The command's end; one that took the URL and kept running (a worker serving) is killed after
 *  20 s and reported as exit -1: the refusal is due at once, before anything connects. */
async function refusedOrKilled(args: string[], cwd: string, home: string): Promise<{ code: number; stderr: string }> {
  const p = Bun.spawn([BINARY, ...args], { cwd, env: cleanEnv({ home, env: FLEET_ENV }), stdout: "ignore", stderr: "pipe" });
  const timer = setTimeout(() => p.kill("SIGKILL"), 20_000);
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { code: p.signalCode === "SIGKILL" ? -1 : code, stderr };
}

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");

describe.skipIf(!HAVE_REDIS)("a Redis password never on the command line", { timeout: 120_000 }, () => {
  const redis = useRedis({ password: PASSWORD });
  const dir = tempDir("redis-password");
  afterAll(() => dir.cleanup());
  const home = join(dir.path, ".vouch");

  test("a URL with a password is refused by every command, exit 2, the password not echoed", async () => {
    writeFileSync(join(dir.path, "g.yaml"), "version: 1\nname: pw\nnodes:\n  a: { kind: script, run: 'true' }\n");
    const url = redis().url.replace("redis://", `redis://:${PASSWORD}@`);
    for (const args of [
      ["worker", url],
      ["workers", url],
      ["run", "g.yaml", "--executor", url],
      ["export", "k8s", "--executor", url, "--image", "i"],
    ]) {
      const r = await refusedOrKilled(args, dir.path, home);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("VOUCH_REDIS_PASSWORD");
      expect(r.stderr).not.toContain(PASSWORD);
    }
  });

  test("the password from the environment or a file: workers and coordinator connect, and ps never shows it", async () => {
    const file = join(dir.path, "password");
    writeFileSync(file, `${PASSWORD}\n`, { mode: 0o600 });
    const w0 = await WorkerProc.start(redis().url, "w0", home, 2, { VOUCH_REDIS_PASSWORD: PASSWORD });
    const w1 = await WorkerProc.start(redis().url, "w1", home, 2, { VOUCH_REDIS_PASSWORD_FILE: file });
    try {
      writeFileSync(
        join(dir.path, "g.yaml"),
        `version: 1
name: pw
nodes:
  items: { kind: script, run: "echo [0,1,2,3]", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work: { kind: script, run: "sleep 0.2; echo '{}'", output: { format: json } }
`,
      );
      const c = new Coordinator(["run", "g.yaml", "--executor", redis().url], home, dir.path, { VOUCH_REDIS_PASSWORD: PASSWORD });
      await c.until((evs) => of(evs, "node.started").some((e) => e.remote !== undefined));
      for (const pid of [c.proc.pid, w0.proc.pid, w1.proc.pid]) expect(cmdline(pid)).not.toContain(PASSWORD);
      const { code, events } = await c.doneWithin(60_000);
      expect(code, c.err).toBe(0);
      expect(of(events, "branch.finished").map((e) => e.status)).toEqual(["passed", "passed", "passed", "passed"]);
      const listed = await vouch(["workers", redis().url, "--json"], { home, cwd: dir.path, env: { VOUCH_REDIS_PASSWORD_FILE: file } });
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as { workers: unknown[] }).workers).toHaveLength(2);
    } finally {
      await Promise.all([w0.term(), w1.term()]);
    }
  });
});
