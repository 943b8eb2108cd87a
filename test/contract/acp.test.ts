// The acp harness (ADR 0051) with real agents: gemini 0.61.0 `--acp` and the
// claude-code-acp 0.16.2 adapter (Claude Code through the Claude Agent SDK), each
// against its fake model server, through dist/vouch: a text answer, a file edit
// in a git worktree answered by the node's permission mode, the turns cap kept by
// vouch's own count, Ctrl-C in the middle of a sitting, a usage limit and a
// refused key — each with the verdict it must have.
import { afterAll, expect, test } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { always, answer, apiError, startFakeAnthropic, toolsForever, toolUse, type Script } from "./servers/anthropic.ts";
import { geminiAnswer, geminiCall, geminiError, startGeminiScript } from "./servers/gemini.ts";
import { PLAIN_ANSWER } from "./servers/scenarios.ts";
import { cleanupScratch, describeCli } from "./lib/index.ts";
import { ACP_COMMANDS, acpGraph, acpHome, claudeAcpEnv, geminiAcpEnv, leftIn, runAcp, type AcpAgentName } from "./lib/acp.ts";
import type { ContractResult } from "./lib/run.ts";
import type { ThrowawayHome } from "./lib/home.ts";

afterAll(() => cleanupScratch());

const SLOW = { timeout: 180_000 };
const EDITED = "EDITED.md";
const EDIT_TEXT = "edited by the model through ACP\n";

/** The model of one test: what it answers each request (0-based), given the request's body text. */
type Model = "plain" | "edit" | "tools" | "limited" | "unauthorized";

interface World {
  home: ThrowawayHome;
  env: Record<string, string>;
  requests(): number;
  stop(): Promise<void>;
}

function geminiModel(model: Model): (body: string, n: number) => Response {
  switch (model) {
    case "plain":
      return () => geminiAnswer([{ text: PLAIN_ANSWER }]);
    case "edit":
      // gemini's write_file takes a path inside its workspace (the worktree vouch made).
      return (body) =>
        body.includes('"functionResponse"')
          ? geminiAnswer([{ text: "Done." }])
          : geminiCall("write_file", { file_path: EDITED, content: EDIT_TEXT });
    case "tools":
      return (_b, n) => geminiCall("list_directory", { dir_path: ".", ignore: [`never-${n}`] });
    case "limited":
      return () => geminiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded (fake server)");
    case "unauthorized":
      return () => geminiError(401, "UNAUTHENTICATED", "API key not valid (fake server)");
  }
}

/** claude's Write takes an absolute path: the model reads the working directory from claude's system prompt. */
const claudeEdit: Script = (_n, body) => {
  const text = JSON.stringify(body);
  if (text.includes('"tool_result"')) return answer("Done.");
  const cwd = /Working directory: ([^\s"\\]+)/.exec(text)?.[1] ?? "/nowhere";
  return { kind: "message", blocks: [toolUse("Write", { file_path: join(cwd, EDITED), content: EDIT_TEXT })] };
};

function claudeModel(model: Model): Script {
  switch (model) {
    case "plain":
      return always(answer(PLAIN_ANSWER));
    case "edit":
      return claudeEdit;
    case "tools":
      return toolsForever;
    case "limited":
      return always(apiError(429, { "retry-after": "0" }));
    case "unauthorized":
      return always(apiError(401));
  }
}

function world(agent: AcpAgentName, model: Model, git = false): World {
  const home = acpHome(agent, git);
  if (agent === "gemini") {
    const server = startGeminiScript(geminiModel(model));
    return { home, env: geminiAcpEnv(server.base), requests: server.requests, stop: server.stop };
  }
  const server = startFakeAnthropic(claudeModel(model));
  return { home, env: claudeAcpEnv(server), requests: () => server.requests.length, stop: server.stop };
}

async function scenario(
  agent: AcpAgentName,
  model: Model,
  node: { caps?: string; permissionMode?: string; worktree?: boolean },
  check: (r: ContractResult, w: World) => void | Promise<void>,
  run: { args?: string[]; interruptWhen?: Parameters<typeof runAcp>[0]["interruptWhen"] } = {},
): Promise<void> {
  const w = world(agent, model, node.worktree);
  try {
    const r = await runAcp({ home: w.home, graph: acpGraph({ agent, cwd: w.home.work, ...node }), env: w.env, ...run });
    await check(r, w);
    // Whatever the verdict, no process of the sitting is left in its folder.
    expect(await leftIn(w.home.work)).toEqual([]);
  } finally {
    await w.stop();
    w.home.cleanup();
  }
}

/** The file the edit wrote, at the node's commit; null when the commit does not hold it. */
function committed(r: ContractResult, home: ThrowawayHome): string | null {
  const ws = r.finished("ask").workspace;
  if (!ws) return null;
  const show = Bun.spawnSync(["git", "show", `${ws.commit}:${EDITED}`], { cwd: home.work, stdout: "pipe", stderr: "ignore" });
  return show.exitCode === 0 ? show.stdout.toString() : null;
}

for (const agent of ["gemini", "claude-code-acp"] as const) {
  describeCli(agent, `acp with ${agent}`, () => {
    test("a text answer: passed exit-only, complete, one turn, ACP's session id, exit 0", SLOW, async () => {
      await scenario(agent, "plain", {}, (r) => {
        expect(r.finished("ask")).toMatchObject({
          status: "passed",
          qualifier: "exit-only",
          stop_reason: "complete",
          turns: 1,
          cost_usd: null,
        });
        expect(r.finished("ask").result_tail).toBe(PLAIN_ANSWER);
        expect(r.finished("ask").session_id).toMatch(/^[0-9a-f-]{36}$/);
        expect(r.code).toBe(0);
      });
    });

    test("a file edit in a worktree with accept-edits: vouch allows it, the file is in the node's commit", SLOW, async () => {
      await scenario(agent, "edit", { permissionMode: "accept-edits", worktree: true }, (r, w) => {
        expect(r.finished("ask")).toMatchObject({ status: "passed", stop_reason: "complete", turns: 2 });
        expect(r.finished("ask").workspace).toMatchObject({ files_changed: 1 });
        expect(committed(r, w.home)).toBe(EDIT_TEXT);
        // The edit is on record as the sitting went: the tool call and its file.
        expect(r.progress("ask").some((p) => p.activity?.startsWith("edit ") && p.activity.includes(EDITED))).toBe(true);
        // The agent worked in the worktree, never in the repository itself.
        expect(existsSync(join(w.home.work, EDITED))).toBe(false);
      });
    });

    test("the same edit under deny (the default mode): vouch refuses it, nothing changes", SLOW, async () => {
      await scenario(agent, "edit", { worktree: true }, (r, w) => {
        // gemini tells the model the call was refused and it answers (two responses, the refused call
        // counted from the permission request alone); claude-code-acp ends the turn at the refusal.
        expect(r.finished("ask")).toMatchObject({ status: "passed", stop_reason: "complete", turns: agent === "gemini" ? 2 : 1 });
        if (agent === "gemini") expect(w.requests()).toBe(2);
        expect(r.finished("ask").workspace).toMatchObject({ files_changed: 0 });
        expect(committed(r, w.home)).toBeNull();
      });
    });

    test("tools forever, turns: 3: vouch's own count stops it at the response past the cap", SLOW, async () => {
      await scenario(agent, "tools", { caps: "{ turns: 3, wall: 90s }" }, (r, w) => {
        const turns = r.finished("ask").turns ?? 0;
        expect(r.finished("ask")).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "turns" });
        // Measured alone: 4 turns, 4 or 5 requests. Whatever the machine's load: past the cap, every
        // response counted, at most the one request in flight at the kill uncounted.
        expect(turns).toBeGreaterThanOrEqual(4);
        // The overrun is told once, live, at the first count past the cap: a response that lands
        // while the agent is being stopped is counted in the node's turns, not in that event.
        const told = r.overruns().map((o) => [o.cap, o.limit, o.actual] as const);
        expect(told.map(([cap, limit]) => [cap, limit])).toEqual([["turns", 3]]);
        expect(told[0]![2]).toBeGreaterThanOrEqual(4);
        expect(told[0]![2]).toBeLessThanOrEqual(turns);
        expect(w.requests() - turns).toBeGreaterThanOrEqual(0);
        expect(w.requests() - turns).toBeLessThanOrEqual(1);
        expect(r.code).toBe(3);
      });
    });

    test("Ctrl-C in the middle of a sitting: interrupted (130), the node cancelled, the agent gone", SLOW, async () => {
      await scenario(
        agent,
        "tools",
        {},
        (r) => {
          expect(r.finished("ask")).toMatchObject({ status: "cancelled" });
          expect(r.run()).toMatchObject({ status: "interrupted" });
          expect(r.code).toBe(130);
        },
        { interruptWhen: (e) => e.type === "node.progress" && (e.turns ?? 0) >= 2 },
      );
    });

    test("a usage limit (429 on every request): held by the limit, the run paused, exit 4", SLOW, async () => {
      await scenario(agent, "limited", {}, (r) => {
        const limited = r.events.filter((e) => e.type === "node.limited");
        expect(limited).toEqual([expect.objectContaining({ node: "ask", harness: "acp" })]);
        expect(r.run()).toMatchObject({ status: "paused", reason: "rate_limited" });
        expect(r.code).toBe(4);
      });
    });

    test("a refused key (401): unavailable, the one wording of every harness, exit 3", SLOW, async () => {
      await scenario(agent, "unauthorized", {}, (r) => {
        expect(r.finished("ask")).toMatchObject({ status: "error", cause: "unavailable", stop_reason: "unavailable" });
        expect(r.finished("ask").error).toMatch(/the API key or login was refused/);
        expect(r.code).toBe(3);
      });
    });
  });
}

/** Two nodes on one agent, the second continuing the first's session (ADR 0023: ACP's own session ids). */
const sessionGraph = (agent: AcpAgentName, cwd: string) => `version: 1
name: acp-sessions
defaults:
  harness: acp
  acp: { command: ${JSON.stringify(ACP_COMMANDS[agent])} }
  cwd: ${JSON.stringify(cwd)}
nodes:
  first: { kind: agent, prompt: Say hello. }
  again: { kind: agent, prompt: Say hello again., needs: [first], session: { continue: first } }
`;

describeCli("claude-code-acp", "acp sessions with claude-code-acp", () => {
  test("session: { continue } resumes ACP's session (session/resume): the same id, passed", SLOW, async () => {
    const w = world("claude-code-acp", "plain");
    try {
      const r = await runAcp({ home: w.home, graph: sessionGraph("claude-code-acp", w.home.work), env: w.env });
      const first = r.finished("first").session_id;
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.events.find((e) => e.type === "node.started" && e.node === "again")).toMatchObject({
        session: { mode: "resume", id: first },
      });
      expect(r.finished("again")).toMatchObject({ status: "passed", stop_reason: "complete", session_id: first });
      expect(r.code).toBe(0);
    } finally {
      await w.stop();
      w.home.cleanup();
    }
  });
});

describeCli("gemini", "acp sessions with gemini", () => {
  test("gemini --acp cannot resume with vouch: refused before start, exit 2", SLOW, async () => {
    const w = world("gemini", "plain");
    try {
      const r = await runAcp({ home: w.home, graph: sessionGraph("gemini", w.home.work), env: w.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/the agent gemini cannot resume a session with vouch/);
      expect(w.requests()).toBe(0);
    } finally {
      await w.stop();
      w.home.cleanup();
    }
  });
});
