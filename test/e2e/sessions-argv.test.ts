// Sittings that continue sessions (ADR 0023), through the real binary with the
// stub CLIs (test/stubs/harness/) first on PATH: each stub appends the argv and
// prompt it was started with to STUB_ARGV, keeps each session's total cost in
// STUB_SESSION_DIR (claude's total counts a resumed session's earlier sittings)
// and fails a resume of an id it never saw, as the real CLIs do.
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, parseNdjson, ROOT, tempDir, vouch, type TempDir } from "./helpers.ts";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";

const STUBS = join(ROOT, "test", "stubs", "harness");
const CLAUDE_ID = "5f0c8a52-2d7e-4b7a-9a51-6c1f3e0b9d27";
let dir: TempDir;

beforeAll(() => void ensureBinary(), 120_000);
afterEach(() => dir?.cleanup());

interface Started {
  argv: string[];
  prompt: string;
}

async function run(graph: string, stubEnv: Record<string, string> = {}) {
  dir = tempDir("sessions");
  const work = join(dir.path, "work");
  // The stubs' records live in the sittings' own folder: a sealed sitting (ADR 0040) writes nothing else.
  const sessions = join(work, ".stub-sessions");
  mkdirSync(work);
  mkdirSync(sessions);
  const file = join(dir.path, "graph.yaml");
  writeFileSync(file, graph.replaceAll("WORK", work));
  const argvFile = join(work, ".stub-argv.jsonl");
  const env: Record<string, string> = { STUB_ARGV: argvFile, STUB_SESSION_DIR: sessions, STUB_TURN_MS: "1", ...stubEnv };
  const passEnv = Object.keys(env).flatMap((n) => ["--pass-env", n]);
  const r = await vouch(["run", file, "--json", ...passEnv], {
    home: join(dir.path, "vouch"),
    env: { ...env, PATH: `${STUBS}:${process.env.PATH ?? "/usr/bin:/bin"}` },
  });
  const vouchEnv = { ...env, PATH: `${STUBS}:${process.env.PATH ?? "/usr/bin:/bin"}` };
  return {
    ...inspect(r, argvFile),
    home: join(dir.path, "vouch"),
    work,
    again: async (args: string[]) => inspect(await vouch([...args, "--json"], { home: join(dir.path, "vouch"), env: vouchEnv }), argvFile),
  };
}

function inspect(r: { code: number; stdout: string; stderr: string }, argvFile: string) {
  let started: Started[] = [];
  try {
    started = readFileSync(argvFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Started);
  } catch {
    // no sitting started
  }
  const events = parseNdjson(r.stdout);
  const finished = (node: string) => events.find((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === node)!;
  const of = <T extends VouchEvent["type"]>(type: T) => events.filter((e): e is EventOf<T> => e.type === type);
  return { ...r, started, events, finished, of };
}

/** A check that fails the first time it runs in WORK and passes after. */
const FAILS_ONCE = `{ name: once, run: "test -f .seen || { touch .seen; echo first attempt rejected; exit 1; }" }`;

describe("retry: { session: continue }", () => {
  test("claude: the second sitting resumes the first's session with only the failure as its prompt; each attempt's cost apart", async () => {
    const r = await run(
      `version: 1
name: s
nodes:
  work:
    kind: agent
    harness: claude
    cwd: WORK
    prompt: "Write the whole feature."
    retry: { max: 1, on: [check_failed], session: continue }
    success: { checks: [${FAILS_ONCE}] }
`,
      { STUB_TURN_COST: "0.25" },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.started).toHaveLength(2);
    expect(r.started[0]!.argv.some((a) => a.startsWith("--resume"))).toBe(false);
    expect(r.started[0]!.prompt).toBe("Write the whole feature.");
    expect(r.started[1]!.argv).toContain(`--resume=${CLAUDE_ID}`);
    expect(r.started[1]!.argv).not.toContain("--fork-session");
    // Only the failure: the resumed session already holds the task.
    expect(r.started[1]!.prompt).toMatch(/^Your previous attempt \(attempt 1\) did not pass\./);
    expect(r.started[1]!.prompt).toContain("first attempt rejected");
    expect(r.started[1]!.prompt).not.toContain("Write the whole feature.");
    const starts = r.of("node.started");
    expect(starts[1]!.session).toEqual({ mode: "resume", id: CLAUDE_ID, node: "work", attempt: 1 });
    expect(r.of("node.retrying")[0]!.session_id).toBe(CLAUDE_ID);
    // The stub reports the session's total (0.25, then 0.50), as claude does: each attempt costs its own 0.25.
    const f = r.finished("work");
    expect(f).toMatchObject({ status: "passed", attempt: 2, cost_usd: 0.5, session_id: CLAUDE_ID });
    const shown = JSON.parse((await vouch(["show", "last", "--json"], { home: r.home })).stdout);
    const attempts = shown.nodes[0].attempts.map((a: { attempt: number; session_id: string; cost_usd: number }) => [
      a.attempt,
      a.session_id,
      a.cost_usd,
    ]);
    expect(attempts).toEqual([
      [1, CLAUDE_ID, 0.25],
      [2, CLAUDE_ID, 0.5], // node.finished's cost_usd is the node's sum over its attempts
    ]);
    const text = (await vouch(["show", "last"], { home: r.home })).stdout;
    expect(text).toContain(`\nSessions\n  work attempt 1: ${CLAUDE_ID}\n  work attempt 2: ${CLAUDE_ID}\n`);
  }, 60_000);

  test("codex: exec resume -- ID -, the id after --; gemini: --resume=ID", async () => {
    for (const harness of ["codex", "gemini"] as const) {
      const r = await run(`version: 1
name: s
nodes:
  work:
    kind: agent
    harness: ${harness}
    cwd: WORK
    prompt: "Write it."
    retry: { max: 1, on: [check_failed], session: continue }
    success: { checks: [${FAILS_ONCE}] }
`);
      expect(r.code, r.stderr).toBe(0);
      const id = harness === "codex" ? "0199a213-stub" : "gemini-stub";
      const second = r.started[1]!.argv;
      if (harness === "codex") expect(second.slice(-4)).toEqual(["resume", "--", id, "-"]);
      else expect(second).toContain(`--resume=${id}`);
      expect(r.started[1]!.prompt).toMatch(/^Your previous attempt \(attempt 1\)/);
      r.started.length = 0;
      dir.cleanup();
    }
  }, 90_000);

  test("a first attempt that reported a hostile session id: the retry is a fresh sitting with the whole prompt, and says why", async () => {
    for (const hostile of ["--dangerously-skip-permissions", "\u001b]0;pwned\u0007abc", "../../etc/passwd"]) {
      const r = await run(
        `version: 1
name: s
nodes:
  work:
    kind: agent
    harness: claude
    cwd: WORK
    prompt: "Write it."
    retry: { max: 1, on: [check_failed], session: continue }
    success: { checks: [${FAILS_ONCE}] }
`,
        { STUB_SESSION_ID: hostile },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.started).toHaveLength(2);
      for (const s of r.started)
        expect(s.argv.some((a) => a.includes(hostile) || a.startsWith("--resume") || a.startsWith("--dangerously"))).toBe(false);
      expect(r.started[1]!.prompt).toMatch(/^Write it\.\n\n---\nYour previous attempt/);
      expect(r.of("node.started")[1]!.session).toEqual({
        mode: "fresh",
        node: "work",
        attempt: 1,
        note: "attempt 1 reported a session id vouch does not pass to a CLI: this retry is a fresh sitting with the whole prompt",
      });
      dir.cleanup();
    }
  }, 90_000);
});

describe("session: { continue | fork: NODE }", () => {
  const graph = (mode: "continue" | "fork") => `version: 1
name: s
nodes:
  implement:
    kind: agent
    harness: claude
    cwd: WORK
    prompt: "Implement it."
  fix:
    kind: agent
    harness: claude
    cwd: WORK
    needs: [implement]
    prompt: "Fix what is left."
    session: { ${mode}: implement }
`;

  test("continue: fix resumes implement's session with its own prompt, and costs only its own sitting", async () => {
    const r = await run(graph("continue"), { STUB_TURN_COST: "0.3" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.started.map((s) => s.argv.filter((a) => a.startsWith("--resume") || a === "--fork-session"))).toEqual([
      [],
      [`--resume=${CLAUDE_ID}`],
    ]);
    expect(r.started[1]!.prompt).toBe("Fix what is left.");
    expect(r.of("node.started").find((e) => e.node === "fix")!.session).toEqual({ mode: "resume", id: CLAUDE_ID, node: "implement" });
    // claude reported 0.6 for the resumed session: fix's own sitting cost 0.3.
    expect(r.finished("fix")).toMatchObject({ cost_usd: 0.3, session_id: CLAUDE_ID, session_cost_usd: 0.6 });
    expect(r.of("run.finished")[0]!.cost_usd).toBeCloseTo(0.6, 9);
  }, 60_000);

  test("fork: --resume=ID --fork-session; the fork reports its own new session", async () => {
    const r = await run(graph("fork"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.started[1]!.argv).toEqual(expect.arrayContaining([`--resume=${CLAUDE_ID}`, "--fork-session"]));
    expect(r.finished("fix").session_id).toMatch(/-fork-\d+$/);
  }, 60_000);

  test("a node that never reported a session id: the continuing node is an error that says so, and starts no sitting", async () => {
    // implement prints no JSON at all (no session id); exhausted: lets fix run anyway.
    const g = graph("continue").replace('prompt: "Implement it."', 'prompt: "Implement it."\n    exhausted: { output: "none" }');
    const r = await run(g, { STUB_SCENARIO_IF_PROMPT: "Implement=garbage" });
    expect(r.finished("implement")).toMatchObject({ status: "error" });
    expect(r.finished("implement").session_id).toBeUndefined();
    expect(r.finished("fix")).toMatchObject({ status: "error", cause: "unavailable", attempt: 0 });
    expect(r.finished("fix").error).toBe(
      'session.continue: node "implement" (error) reported no session id (its sitting ended before the harness said one); nothing to continue: run it again, or remove session: for a fresh sitting',
    );
    expect(r.started).toHaveLength(1);
    expect(r.code).toBe(3);
  }, 60_000);

  test("a session the CLI no longer has: the CLI's own error, recorded as a harness error", async () => {
    const r = await run(graph("continue"), { STUB_FORGET: "1" });
    expect(r.finished("implement")).toMatchObject({ status: "passed", session_id: CLAUDE_ID });
    expect(r.started[1]!.argv).toContain(`--resume=${CLAUDE_ID}`);
    expect(r.finished("fix")).toMatchObject({ status: "error", stop_reason: "crashed", cause: "harness_error" });
    expect(r.finished("fix").error).toContain(`No conversation found with session ID: ${CLAUDE_ID}`);
    expect(r.code).toBe(3);
  }, 60_000);
});

describe("vouch resume", () => {
  test("a node continuing a node kept from the first session resumes the session id the ledger holds, and its cost is its own", async () => {
    const r = await run(
      `version: 1
name: s
nodes:
  implement:
    kind: agent
    harness: claude
    cwd: WORK
    prompt: "Implement it."
  fix:
    kind: agent
    harness: claude
    cwd: WORK
    needs: [implement]
    prompt: "Fix what is left."
    session: { continue: implement }
    success: { checks: [${FAILS_ONCE}] }
`,
      { STUB_TURN_COST: "0.3" },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.finished("fix")).toMatchObject({ status: "failed", cost_usd: 0.3, session_cost_usd: 0.6 });
    const runId = r.events[0]!.run;
    const again = await r.again(["resume", runId]);
    expect(again.code, again.stderr).toBe(0);
    // implement was kept (no third start of it); fix started once more, on the session from the ledger.
    expect(again.started).toHaveLength(3);
    expect(again.started[2]!.prompt).toBe("Fix what is left.");
    expect(again.started[2]!.argv).toContain(`--resume=${CLAUDE_ID}`);
    expect(again.of("node.started").map((e) => e.node)).toEqual(["fix"]);
    // The session had cost 0.6 when the first session ended: the new sitting's own cost is 0.3, not 0.9 or 0.6.
    const fix = again.finished("fix");
    expect(fix.status).toBe("passed");
    expect(fix.cost_usd).toBeCloseTo(0.3, 9);
    expect(fix.session_cost_usd).toBeCloseTo(0.9, 9);
  }, 60_000);
});

describe("maps and overrides", () => {
  test("each branch's polish continues its own branch's draft (forked per branch from the outer node)", async () => {
    const r = await run(`version: 1
name: s
inputs:
  xs: { default: [a, b, c] }
nodes:
  implement:
    kind: agent
    harness: claude
    cwd: WORK
    prompt: "Implement it."
  each:
    kind: map
    needs: [implement]
    over: inputs.xs
    branch:
      draft:
        kind: agent
        harness: claude
        cwd: WORK
        prompt: "Draft {{ item }}."
        session: { fork: implement }
      polish:
        kind: agent
        harness: claude
        cwd: WORK
        needs: [draft]
        prompt: "Polish {{ item }}."
        session: { continue: draft }
`);
    expect(r.code, r.stderr).toBe(0);
    const drafts = new Map(
      r
        .of("node.finished")
        .filter((e) => e.node === "draft")
        .map((e) => [e.branch!.index, e.session_id!]),
    );
    expect(new Set(drafts.values()).size).toBe(3); // three forks, three sessions
    for (const s of r.started.filter((x) => x.prompt.startsWith("Draft")))
      expect(s.argv).toEqual(expect.arrayContaining([`--resume=${CLAUDE_ID}`, "--fork-session"]));
    for (const [index, item] of ["a", "b", "c"].entries()) {
      const polish = r.started.find((x) => x.prompt === `Polish ${item}.`)!;
      expect(polish.argv).toContain(`--resume=${drafts.get(index)}`);
      expect(polish.argv).not.toContain("--fork-session");
    }
  }, 60_000);

  test("inside a sub-graph (kind: graph), a node continues a node of the same sub-graph", async () => {
    const r = await run(`version: 1
name: s
nodes:
  first: { kind: agent, harness: claude, cwd: WORK, prompt: "Top first." }
  sub: { kind: graph, use: ./sub.yaml, needs: [first] }
`);
    // run() wrote graph.yaml before this file existed: run again with the sub-graph beside it.
    writeFileSync(
      join(dir.path, "sub.yaml"),
      `version: 1
name: sub
nodes:
  implement: { kind: agent, harness: claude, cwd: ${JSON.stringify(r.work)}, prompt: "Sub implement." }
  fix: { kind: agent, harness: claude, cwd: ${JSON.stringify(r.work)}, needs: [implement], prompt: "Sub fix.", session: { fork: implement } }
`,
    );
    const again = await r.again(["run", join(dir.path, "graph.yaml"), "--pass-env", "STUB_ARGV", "--pass-env", "STUB_SESSION_DIR"]);
    expect(again.code, again.stderr).toBe(0);
    const fix = again.started.find((x) => x.prompt === "Sub fix.")!;
    const implemented = again.finished("sub/implement").session_id!;
    expect(fix.argv).toEqual(expect.arrayContaining([`--resume=${implemented}`, "--fork-session"]));
    expect(again.finished("sub/fix").status).toBe("passed");
  }, 60_000);

  test("--harness command on a graph that continues sessions is refused before anything starts (exit 2)", async () => {
    dir = tempDir("sessions");
    const file = join(dir.path, "g.yaml");
    writeFileSync(
      file,
      'version: 1\nname: s\nnodes:\n  a: { kind: agent, prompt: "a", retry: { max: 1, session: continue } }\n  b: { kind: agent, prompt: "b", needs: [a], session: { fork: a } }\n',
    );
    const r = await vouch(["run", file, "--harness", "gemini"], {
      home: join(dir.path, "vouch"),
      env: { PATH: `${STUBS}:${process.env.PATH ?? "/usr/bin:/bin"}` },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('harness "gemini": session.fork: gemini cannot fork a session');
    const c = await vouch(["run", file, "--harness", "command"], { home: join(dir.path, "vouch"), env: { VOUCH_COMMAND: "true" } });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('harness "command": session: the command harness runs a program that has no sessions to continue');
  }, 60_000);
});

describe("vouch show RUN --transcript NODE", () => {
  test("prints the path of the node's transcript, found by its session id; unknown node exit 2; none found exit 3", async () => {
    const r = await run(`version: 1
name: s
nodes:
  implement: { kind: agent, harness: claude, cwd: WORK, prompt: "Implement it." }
  fix: { kind: agent, harness: claude, cwd: WORK, needs: [implement], prompt: "Fix it.", session: { fork: implement } }
  tool: { kind: script, run: "true" }
`);
    expect(r.code, r.stderr).toBe(0);
    const forked = r.finished("fix").session_id!;
    const config = join(dir.path, "claude");
    mkdirSync(join(config, "projects", "-work"), { recursive: true });
    const path = join(config, "projects", "-work", `${forked}.jsonl`);
    writeFileSync(path, "{}\n");
    const env = { CLAUDE_CONFIG_DIR: config };
    const found = await vouch(["show", "last", "--transcript", "fix"], { home: r.home, env });
    expect([found.code, found.stdout, found.stderr]).toEqual([0, `${path}\n`, ""]);
    const missing = await vouch(["show", "last", "--transcript", "implement"], { home: r.home, env });
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain(`no transcript found for session ${CLAUDE_ID} of node "implement"`);
    const script = await vouch(["show", "last", "--transcript", "tool"], { home: r.home, env });
    expect(script.code).toBe(3);
    expect(script.stderr).toContain('node "tool" has no session');
    const unknown = await vouch(["show", "last", "--transcript", "__proto__"], { home: r.home, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no node "__proto__" in run');
    const both = await vouch(["show", "last", "--transcript", "fix", "--json"], { home: r.home, env });
    expect(both.code).toBe(2);
    // The text show lists every attempt's session, and the transcript it found.
    const text = (await vouch(["show", "last"], { home: r.home, env })).stdout;
    expect(text).toContain(
      `\nSessions\n  implement attempt 1: ${CLAUDE_ID}\n  fix attempt 1: ${forked}\n\nTranscripts\n  fix attempt 1: ${path}\n`,
    );
  }, 60_000);
});
