// notify: and --notify through the real binary (ADR 0064): a program gets the event
// as JSON on stdin and never on its command line (a hostile approval message is
// data, not a command), a URL gets it POSTed; a notifier that hangs is stopped at
// its timeout and one that fails is one warning — the run's exit code never changes.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, parseNdjson, STACK_LINE, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
let home: string;
beforeEach(async () => {
  await ensureBinary();
  dir = tempDir("notify");
  home = join(dir.path, ".vouch");
});
afterEach(() => dir.cleanup());

const HOSTILE = `ship it? $(touch ${"PWNED"}) \`touch PWNED2\` '; touch PWNED3; #`;

function graph(
  notify: string,
  nodes = `  a: { kind: script, run: "exit 1" }\n  gate: { kind: approval, prompt: ${JSON.stringify(HOSTILE)} }\n`,
) {
  const file = join(dir.path, "g.yaml");
  writeFileSync(file, `version: 1\nname: told\n${notify === "" ? "" : `notify:\n${notify}`}nodes:\n${nodes}`);
  return file;
}

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("notify: a program", { timeout: 60_000 }, () => {
  test("gets each event as one JSON line on stdin; a hostile approval message stays data", async () => {
    const out = join(dir.path, "told.ndjson");
    const file = graph(`  - { argv: [sh, -c, 'cat >> "$OUT"'], env: [OUT], on: [approval_waiting, run_finished, run_failed] }\n`);
    const r = await vouch(["run", file, "--json"], { home, cwd: dir.path, env: { OUT: out } });
    expect(r.code).toBe(4); // paused at the approval; the failed node does not change that either way
    expect(r.stderr).not.toContain("notify");
    const told = lines(out);
    expect(told.map((t) => t.event).sort()).toEqual(["approval_waiting", "run_finished"]);
    const approval = told.find((t) => t.event === "approval_waiting")!;
    expect(approval).toMatchObject({ vouch: 1, graph: "told", node: "gate", prompt: HOSTILE });
    expect(approval.run).toBe(parseNdjson(r.stdout)[0]!.run);
    for (const f of ["PWNED", "PWNED2", "PWNED3"]) expect(existsSync(join(dir.path, f)), f).toBe(false);
  });

  test("a program that hangs is stopped at its timeout, one that fails is one warning: the exit code is the run's", async () => {
    const pidFile = join(dir.path, "hang.pid");
    const file = graph(
      `  - { argv: [sh, -c, 'echo $$ > "$PIDFILE"; exec sleep 600'], env: [PIDFILE], timeout: 1s }\n  - { argv: [sh, -c, 'echo nope >&2; exit 7'] }\n`,
      `  a: { kind: script, run: "true" }\n  b: { kind: script, needs: [a], run: "true" }\n`,
    );
    const r = await vouch(["run", file, "--plain"], { home, cwd: dir.path, env: { PIDFILE: pidFile } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("vouch: notify sh (run_finished) failed");
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("vouch: notify"));
    expect(warnings).toHaveLength(2);
    expect(warnings.some((w) => /failed: it did not end within 1s \(stopped\)/.test(w))).toBe(true);
    expect(warnings.some((w) => /failed: it exited 7: nope/.test(w))).toBe(true);
    expect(r.stderr).not.toMatch(STACK_LINE);
    // The hung program was killed, not left behind.
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  test("--notify PROGRAM --notify-on run_failed: told of the failure only", async () => {
    const out = join(dir.path, "flag.ndjson");
    const prog = join(dir.path, "tell.sh");
    writeFileSync(prog, `#!/bin/sh\ncat >> '${out}'\n`, { mode: 0o755 });
    const file = graph("", `  a: { kind: script, run: "exit 2" }\n`);
    const r = await vouch(["run", file, "--plain", "--notify", prog, "--notify-on", "run_failed,run_errored"], { home, cwd: dir.path });
    expect(r.code).toBe(1);
    expect(lines(out).map((t) => t.event)).toEqual(["run_failed"]);
    expect(lines(out)[0]).toMatchObject({ status: "failed", exit_code: 1, counts: { failed: 1 } });
    const bad = await vouch(["run", file, "--notify-on", "run_failed"], { home, cwd: dir.path });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--notify-on chooses the events of --notify");
  });
});

describe("notify: a URL", { timeout: 60_000 }, () => {
  test("gets the event POSTed as JSON; a redirect and a 500 are failures said once each; the run's verdict stands", async () => {
    const bodies: { path: string; type: string | null; body: unknown }[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const path = new URL(req.url).pathname;
        bodies.push({ path, type: req.headers.get("content-type"), body: await req.json() });
        if (path === "/moved") return Response.redirect("http://127.0.0.1:1/elsewhere", 302);
        if (path === "/broken") return new Response("no", { status: 500 });
        return new Response(null, { status: 204 });
      },
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const file = graph(
        `  - { url: "${base}/ok" }\n  - { url: "${base}/moved", on: [run_finished] }\n  - { url_env: HOOK, on: [run_finished] }\n`,
        `  a: { kind: script, run: "true" }\n`,
      );
      const r = await vouch(["run", file, "--plain"], { home, cwd: dir.path, env: { HOOK: `${base}/broken` } });
      expect(r.code).toBe(0);
      const ok = bodies.filter((b) => b.path === "/ok");
      expect(ok).toHaveLength(1);
      expect(ok[0]!.type).toBe("application/json");
      expect(ok[0]!.body).toMatchObject({ vouch: 1, event: "run_finished", status: "passed", exit_code: 0 });
      expect(bodies.filter((b) => b.path === "/elsewhere")).toEqual([]);
      expect(r.stderr).toContain(`vouch: notify ${base}/… (run_finished) failed: the server answered 302 (a redirect: not followed)`);
      expect(r.stderr).toContain("vouch: notify $HOOK (run_finished) failed: the server answered 500");
      expect(r.stderr).not.toContain("/broken");
    } finally {
      server.stop(true);
    }
  });

  test("url_env not set: said once, the run goes on", async () => {
    const file = graph(`  - { url_env: NOT_SET_ANYWHERE }\n`, `  a: { kind: script, run: "true" }\n`);
    const r = await vouch(["run", file, "--plain"], { home, cwd: dir.path });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("vouch: notify: url_env NOT_SET_ANYWHERE is not set: that notifier is left out");
  });
});

describe("the Slack example of docs/graph-language.md", { timeout: 60_000 }, () => {
  const HAVE = Bun.which("jq") !== null && Bun.which("curl") !== null;
  test.skipIf(!HAVE)("posts {text} and nothing else to the webhook, as a Slack incoming webhook takes it", async () => {
    const doc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "graph-language.md"), "utf8");
    const block = /```yaml\n(notify:\n[\s\S]*?)```/.exec(doc)![1]!;
    const slack = (Bun.YAML.parse(block) as { notify: Record<string, unknown>[] }).notify.find((n) => JSON.stringify(n).includes("SLACK"))!;
    const got: unknown[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        got.push(await req.json());
        return new Response("ok");
      },
    });
    try {
      const file = graph(`  - ${JSON.stringify(slack)}\n`, `  a: { kind: script, run: "exit 1" }\n`);
      const r = await vouch(["run", file, "--plain"], {
        home,
        cwd: dir.path,
        env: { SLACK_WEBHOOK_URL: `http://127.0.0.1:${server.port}/services/T/B/x` },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain("notify");
      expect(got).toEqual([{ text: expect.stringMatching(/^vouch: told \(run \S+\) failed, exit 1: 0 passed, 1 failed/) }]);
    } finally {
      server.stop(true);
    }
  });
});
