// The acp harness's pure parts (ADR 0051): the turn count from session/update, the
// permission answers by mode, the session state read from hostile updates, and
// the verdict from how the conversation ended. The real agents: test/contract/acp.test.ts.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { acpTurnCounter } from "../../src/spawn/harness/acp/turns.ts";
import { allowed, answerPermission, ACP_PERMISSION_MODES } from "../../src/spawn/harness/acp/permissions.ts";
import { AcpSessionState, tokensOf } from "../../src/spawn/harness/acp/session-state.ts";
import { acpLimit, decideAcp } from "../../src/spawn/harness/acp/verdict.ts";
import { acpGuarantees, agentOf, ANY_AGENT_GUARANTEES } from "../../src/spawn/harness/acp/agents.ts";
import { buildAcpCommand } from "../../src/spawn/harness/acp/adapter.ts";

const END = { exit: null, signal: "SIGTERM", stdoutTail: "", stderrTail: "", truncated: false };
const text = (t: string) => ({ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } });
const call = (id: string, status?: string, kind = "search") => ({
  update: { sessionUpdate: "tool_call", toolCallId: id, kind, title: "t", ...(status ? { status } : {}) },
});
const done = (id: string, status = "completed") => ({ update: { sessionUpdate: "tool_call_update", toolCallId: id, status } });

describe("turns: one per model response, from the updates", () => {
  test("claude-code-acp's shape: text, the same call announced twice, its end, the answer: 2", () => {
    const s = new AcpSessionState();
    for (const u of [text(""), text("Looking."), call("a", "pending"), call("a", "pending"), done("a"), text("Done.")]) s.update(u);
    expect(s.counter.turns).toBe(2);
    expect(s.text).toBe("Done.");
  });

  test("gemini's shape: a refused call is a lone failed update, a response of its own", () => {
    const c = acpTurnCounter();
    c.update("tool_call_update", "x1", "failed");
    c.update("tool_call", "x2", "in_progress");
    c.update("tool_call_update", "x2", "completed");
    c.update("agent_message_chunk");
    expect(c.turns).toBe(3);
  });

  test("parallel calls of one response count once; text while a call runs opens nothing", () => {
    const c = acpTurnCounter();
    c.update("tool_call", "a");
    c.update("tool_call", "b");
    c.update("agent_message_chunk");
    c.update("tool_call_update", "a", "completed");
    c.update("tool_call_update", "b", "completed");
    c.update("agent_message_chunk");
    expect(c.turns).toBe(2);
  });

  test("a call vouch refused is closed, so the next response counts (claude-code-acp sends no end for it)", () => {
    const c = acpTurnCounter();
    c.update("tool_call", "a", "pending");
    c.closed("a");
    c.update("agent_message_chunk");
    expect(c.turns).toBe(2);
  });

  test("property: any sequence never throws, the count never goes down and never passes the updates", () => {
    const kinds = fc.constantFrom(
      "agent_message_chunk",
      "agent_thought_chunk",
      "tool_call",
      "tool_call_update",
      "plan",
      "usage_update",
      "__proto__",
    );
    const u = fc.record({
      kind: kinds,
      id: fc.option(fc.constantFrom("a", "b", "c", "constructor"), { nil: undefined }),
      status: fc.option(fc.constantFrom("pending", "completed", "failed"), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(u, { maxLength: 60 }), (us) => {
        const c = acpTurnCounter();
        let last = 0;
        for (const x of us) {
          c.update(x.kind, x.id, x.status);
          expect(c.turns).toBeGreaterThanOrEqual(last);
          last = c.turns;
        }
        expect(c.turns).toBeLessThanOrEqual(us.length);
      }),
    );
  });
});

describe("permission answers", () => {
  const options = [
    { optionId: "always", kind: "allow_always" },
    { optionId: "once", kind: "allow_once" },
    { optionId: "no", kind: "reject_once" },
  ];
  test.each([
    ["deny", "edit", "no"],
    ["deny", "execute", "no"],
    ["accept-edits", "edit", "once"],
    ["accept-edits", "delete", "once"],
    ["accept-edits", "execute", "no"],
    ["accept-edits", undefined, "no"],
    ["allow-all", "execute", "once"],
  ] as const)("%s, a %s call: %s (never an always option)", (mode, kind, optionId) => {
    const a = answerPermission(mode, kind, options);
    expect(a).toEqual({ outcome: { outcome: "selected", optionId } });
    expect(allowed(a, options)).toBe(optionId === "once");
  });

  test("no option of the kind needed: cancelled, which lets nothing run", () => {
    expect(answerPermission("allow-all", "edit", [{ optionId: "always", kind: "allow_always" }])).toEqual({
      outcome: { outcome: "cancelled" },
    });
    expect(answerPermission("deny", "edit", [{ optionId: "once", kind: "allow_once" }])).toEqual({ outcome: { outcome: "cancelled" } });
    expect(allowed({ outcome: { outcome: "cancelled" } }, options)).toBe(false);
  });

  test("the modes, deny first (the default and the planner's read-only setting)", () => {
    expect(ACP_PERMISSION_MODES).toEqual(["deny", "accept-edits", "allow-all"]);
  });
});

describe("the session state reads hostile updates", () => {
  test("non-objects, unknown kinds and a replayed history change nothing", () => {
    const s = new AcpSessionState();
    for (const u of [null, 7, "x", [], { update: 1 }, { update: { sessionUpdate: "__proto__" } }, { update: { sessionUpdate: 5 } }])
      expect(s.update(u)).toBe(false);
    s.replaying = true;
    expect(s.update(text("old"))).toBe(false);
    expect(s.counter.turns).toBe(0);
  });

  test("tool calls are recorded with their files, bounded; edits are the edit kinds' paths", () => {
    const s = new AcpSessionState();
    s.update({
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "e",
        kind: "edit",
        title: "Write",
        locations: [{ path: "/w/a.ts" }],
        content: [{ type: "diff", path: "/w/b.ts" }],
      },
    });
    s.update({ update: { sessionUpdate: "tool_call", toolCallId: "r", kind: "read", locations: [{ path: "/w/c.ts" }] } });
    expect(s.editedPaths()).toEqual(["/w/a.ts", "/w/b.ts"]);
    expect(s.activity).toBe("read tool /w/c.ts (pending)");
    for (let i = 0; i < 600; i++) s.update(call(`c${i}`));
    expect(s.toolCalls.size).toBe(500);
  });

  test("a cost counts only in US dollars; tokens from ACP's usage or gemini's quota", () => {
    const s = new AcpSessionState();
    expect(s.update({ update: { sessionUpdate: "usage_update", used: 1, size: 2, cost: { amount: 3, currency: "credits" } } })).toBe(false);
    expect(s.update({ update: { sessionUpdate: "usage_update", used: 1, size: 2, cost: { amount: -1, currency: "USD" } } })).toBe(false);
    expect(s.update({ update: { sessionUpdate: "usage_update", used: 1, size: 2, cost: { amount: 0.25, currency: "USD" } } })).toBe(true);
    expect(s.costUsd).toBe(0.25);
    expect(tokensOf({ usage: { inputTokens: 10, outputTokens: 2, cachedReadTokens: 5, cachedWriteTokens: 1 } })).toEqual({
      input: 10,
      output: 2,
      cache_read: 5,
      cache_creation: 1,
    });
    expect(tokensOf({ _meta: { quota: { token_count: { input_tokens: 100, output_tokens: 20 } } } })).toEqual({
      input: 100,
      output: 20,
      cache_read: 0,
      cache_creation: 0,
    });
    expect(tokensOf({ usage: { inputTokens: -5, outputTokens: "x" } })).toEqual({ input: 0, output: 0, cache_read: 0, cache_creation: 0 });
  });

  test("an untested agent's turns are not reported (never an invented number)", () => {
    const s = new AcpSessionState(false);
    s.initialized = true;
    s.update(text("hi"));
    s.stopped({ stopReason: "end_turn" });
    expect(s.progress().turns).toBeUndefined();
    expect(decideAcp(s, END, "x").turns).toBeNull();
  });
});

describe("the verdict", () => {
  const ended = (e: (s: AcpSessionState) => void) => {
    const s = new AcpSessionState();
    s.initialized = true;
    e(s);
    return s;
  };
  test.each([
    ["end_turn", false, "complete"],
    ["max_turn_requests", false, "turns"],
    ["cancelled", true, "cancelled"],
    ["cancelled", false, "crashed"],
    ["max_tokens", false, "crashed"],
    ["refusal", false, "crashed"],
    ["\u001b[31mweird", false, "crashed"],
  ] as const)("stopReason %s (vouch cancelled: %s) → %s", (reason, cancelled, stop) => {
    const s = ended((x) => {
      x.cancelRequested = cancelled;
      x.stopped({ stopReason: reason });
    });
    expect(decideAcp(s, END, "gemini").stopReason).toBe(stop);
  });

  test("an error response: a refused key is unavailable (code or words), anything else crashed", () => {
    expect(
      decideAcp(
        ended((s) => s.failed("the prompt", { code: -32000, message: "Authentication required" })),
        END,
        "a",
      ).stopReason,
    ).toBe("unavailable");
    expect(
      decideAcp(
        ended((s) => s.failed("the prompt", { code: -32603, message: "Internal error: Invalid API key · Fix external API key" })),
        END,
        "a",
      ),
    ).toMatchObject({
      stopReason: "unavailable",
      error: expect.stringMatching(/the API key or login was refused/),
    });
    expect(
      decideAcp(
        ended((s) => s.failed("the prompt", new Error("boom"))),
        END,
        "a",
      ),
    ).toMatchObject({ stopReason: "crashed", error: expect.stringMatching(/during the prompt: boom/) });
  });

  test("a 429 in the error is a usage limit; a reset in it is read", () => {
    const s = ended((x) => x.failed("the prompt", { code: -32603, message: "API Error: 429 rate_limit_error, retry in 30s" }));
    expect(acpLimit(s, { now: 1_000_000 })).toMatchObject({ stop: { resetsAt: 1_030_000 } });
    expect(
      acpLimit(
        ended((x) => x.failed("p", new Error("boom"))),
        { now: 0 },
      ),
    ).toBeNull();
  });

  test("no answer to initialize: no ACP agent (unavailable), naming gemini's --acp", () => {
    expect(decideAcp(new AcpSessionState(), { ...END, exit: 1, signal: null, stderrTail: "Usage: gemini …" }, "gemini")).toMatchObject({
      stopReason: "unavailable",
      turns: null,
      error: expect.stringMatching(/never answered ACP's initialize \(exit 1\).*--acp.*Usage: gemini/),
    });
  });
});

describe("agents and the command", () => {
  test("a tested agent is known by its program's name, wherever it is; any other keeps wall and idle only", () => {
    expect(agentOf(["/opt/bin/gemini", "--acp"])?.name).toBe("gemini");
    expect(acpGuarantees(["claude-code-acp"]).caps.turns).toBe("supervised");
    expect(acpGuarantees(["my-agent"])).toEqual(ANY_AGENT_GUARANTEES);
    expect(acpGuarantees(undefined)).toEqual(ANY_AGENT_GUARANTEES);
    expect(ANY_AGENT_GUARANTEES.caps).toEqual({ turns: "none", budget_usd: "none", wall: "supervised", idle: "supervised" });
  });

  test("the command line is the graph's, the prompt never on it, stdin kept open", () => {
    const a = {
      runId: "r",
      node: "n",
      attempt: 1,
      harness: "acp" as const,
      prompt: "--yolo $(rm -rf /)",
      cwd: "/tmp",
      passEnv: [],
      caps: { wallMs: 1000 },
      output: { format: "text" as const },
      acp: { command: ["gemini", "--acp"] },
    };
    expect(buildAcpCommand(a)).toEqual({ argv: ["gemini", "--acp"], conversation: true, wallMs: 1000 });
    expect(() => buildAcpCommand({ ...a, acp: undefined })).toThrow(/needs the agent's command line/);
  });
});
