// Which session an attempt continues (src/engine/sessions.ts, pure) and the
// words each adapter puts on the command line for it (ADR 0023). A session id
// comes from a CLI's output: whatever it holds, it never becomes a flag.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { chooseSession, SESSION_ID_PATTERN, usableSessionId } from "../../src/engine/sessions.ts";
import { buildClaudeCommand } from "../../src/spawn/harness/claude/adapter.ts";
import { buildCodexCommand } from "../../src/spawn/harness/codex/adapter.ts";
import { buildGeminiCommand } from "../../src/spawn/harness/gemini/adapter.ts";
import { carryCost, ownCost } from "../../src/spawn/harness/claude/session-cost.ts";
import type { AgentAssignment } from "../../src/engine/ports.ts";
import type { StreamParser } from "../../src/spawn/harness/types.ts";

const ID = "4e1305c3-b8d2-45c3-b3db-6df6fd1993b1";

describe("chooseSession", () => {
  test("no session asked: none, on every attempt", () => {
    expect(chooseSession({ self: "a", retryContinues: false, attempt: 2, previous: { attempt: 1, sessionId: ID } })).toEqual({
      kind: "none",
    });
  });

  test("a retry that continues resumes the failed attempt's session, quoting only the failure, with the session's last total", () => {
    expect(
      chooseSession({ self: "a", retryContinues: true, attempt: 2, previous: { attempt: 1, sessionId: ID, sessionCostUsd: 0.25 } }),
    ).toEqual({
      kind: "session",
      mode: "resume",
      session: { id: ID, costUsd: 0.25 },
      from: { node: "a", attempt: 1 },
      quoteOnly: true,
    });
    // The first attempt has nothing to continue.
    expect(chooseSession({ self: "a", retryContinues: true, attempt: 1 })).toEqual({ kind: "none" });
  });

  test("a retry whose failed attempt had no usable id is a fresh sitting with a note; with session: on the node, that session again", () => {
    expect(chooseSession({ self: "a", retryContinues: true, attempt: 2, previous: { attempt: 1 } })).toEqual({
      kind: "fresh",
      note: "attempt 1 reported no session id: this retry is a fresh sitting with the whole prompt",
      from: { node: "a", attempt: 1 },
    });
    const c = chooseSession({
      self: "b",
      retryContinues: true,
      attempt: 2,
      previous: { attempt: 1, sessionId: "-x" },
      node: { mode: "fork", target: "a" },
      target: { sessionId: ID, status: "passed" },
    });
    expect(c).toMatchObject({ kind: "session", mode: "fork", session: { id: ID }, from: { node: "a" }, quoteOnly: false });
  });

  test("session: continue/fork NODE: the target's last session; never finished, or no id: missing, with why", () => {
    const node = { mode: "resume" as const, target: "impl" };
    expect(
      chooseSession({
        self: "fix",
        retryContinues: false,
        attempt: 1,
        node,
        target: { sessionId: ID, sessionCostUsd: 0.3, status: "passed" },
      }),
    ).toEqual({
      kind: "session",
      mode: "resume",
      session: { id: ID, costUsd: 0.3 },
      from: { node: "impl" },
      quoteOnly: false,
    });
    expect(chooseSession({ self: "fix", retryContinues: false, attempt: 1, node, target: undefined })).toEqual({
      kind: "missing",
      error: 'session.continue: node "impl" has not finished in this run, so it has no session to continue',
    });
    expect(
      chooseSession({
        self: "fix",
        retryContinues: false,
        attempt: 1,
        node: { mode: "fork", target: "impl" },
        target: { sessionId: "--help", status: "passed" },
      }),
    ).toEqual({
      kind: "missing",
      error:
        'session.fork: node "impl" (passed) reported a session id vouch does not pass to a CLI; nothing to fork: run it again, or remove session: for a fresh sitting',
    });
  });
});

describe("hostile session ids", () => {
  test("usableSessionId accepts only what the pattern allows: never a leading '-', a control character, a path or a space", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        expect(usableSessionId(s)).toBe(SESSION_ID_PATTERN.test(s));
        if (usableSessionId(s)) expect(s).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]*$/);
      }),
    );
    for (const bad of ["-r", "--resume", "\u001b[31m", "a b", "a/b", "..", "", "x".repeat(200), "é"])
      expect(usableSessionId(bad), bad).toBe(false);
  });

  const assignment = (harness: AgentAssignment["harness"], session: AgentAssignment["session"]): AgentAssignment => ({
    runId: "r",
    node: "n",
    attempt: 1,
    harness,
    prompt: "p",
    cwd: "/tmp",
    passEnv: [],
    caps: {},
    output: { format: "text" },
    ...(session ? { session } : {}),
  });

  test("each adapter's words for a session, in the form the pinned CLI parses", () => {
    expect(buildClaudeCommand(assignment("claude", { mode: "resume", id: ID })).argv).toEqual([
      "claude",
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      `--resume=${ID}`,
    ]);
    expect(buildClaudeCommand(assignment("claude", { mode: "fork", id: ID })).argv.slice(5)).toEqual([`--resume=${ID}`, "--fork-session"]);
    expect(buildCodexCommand({ ...assignment("codex", { mode: "resume", id: ID }), model: "m", permissionMode: "read-only" }).argv).toEqual(
      ["codex", "exec", "--json", "--skip-git-repo-check", "--model=m", "--sandbox=read-only", "resume", "--", ID, "-"],
    );
    expect(buildCodexCommand(assignment("codex", { mode: "fork", id: ID })).argv.slice(-4)).toEqual(["fork", "--", ID, "-"]);
    expect(buildGeminiCommand(assignment("gemini", { mode: "resume", id: ID })).argv).toContain(`--resume=${ID}`);
    expect(() => buildGeminiCommand(assignment("gemini", { mode: "fork", id: ID }))).toThrow("gemini cannot fork a session");
  });

  test("an id that slipped past the engine is refused by the adapter, never put on the command line", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constantFrom("--dangerously-skip-permissions", "-", "\u001b]0;x\u0007", "a\nb")),
        fc.constantFrom("claude", "codex", "gemini") as fc.Arbitrary<"claude" | "codex" | "gemini">,
        (id, harness) => {
          const build = { claude: buildClaudeCommand, codex: buildCodexCommand, gemini: buildGeminiCommand }[harness];
          if (usableSessionId(id)) return;
          expect(() => build(assignment(harness, { mode: "resume", id }))).toThrow(/not a session id/);
        },
      ),
    );
  });
});

describe("a resumed session's cost", () => {
  test("ownCost: the total less what was carried in, never below zero; nothing carried: the total as is", () => {
    expect(ownCost(0.6, 0.25)).toEqual({ costUsd: 0.35, sessionCostUsd: 0.6 });
    expect(ownCost(0.1, 0.25)).toEqual({ costUsd: 0, sessionCostUsd: 0.1 });
    expect(ownCost(0.6, undefined)).toEqual({ costUsd: 0.6 });
    expect(ownCost(null, 0.25)).toEqual({ costUsd: null });
  });

  test("carryCost applies to live progress and the finished sitting", () => {
    const inner: StreamParser = {
      feed: () => ({ turns: 1, costUsd: 0.5 }),
      progress: () => ({ turns: 1, costUsd: 0.5 }),
      finish: () => ({ stopReason: "complete", resultText: "", turns: 1, costUsd: 0.5, tokens: null, permissionDenials: 0 }),
    };
    const p = carryCost(inner, 0.2);
    expect(p.feed("x")?.costUsd).toBeCloseTo(0.3, 9);
    expect(p.progress().costUsd).toBeCloseTo(0.3, 9);
    const s = p.finish({ exit: 0, signal: null, stdoutTail: "", stderrTail: "", truncated: false });
    expect(s.costUsd).toBeCloseTo(0.3, 9);
    expect(s.sessionCostUsd).toBe(0.5);
    expect(carryCost(inner, undefined)).toBe(inner);
  });
});
