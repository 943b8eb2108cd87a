// The child environment builder (docs/architecture.md §7): allowlist + named variables,
// CLAUDECODE always removed, names reported. Checked on the builder and on what
// a real child actually sees.
import { describe, expect, test } from "vitest";
import { buildChildEnv, parentEnv } from "../../src/spawn/child-env.ts";
import { runProcess } from "../../src/spawn/process.ts";
import { stub } from "./helpers.ts";

const PARENT = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/home/someone",
  USER: "someone",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  LC_CTYPE: "C.UTF-8",
  TERM: "xterm",
  TMPDIR: "/tmp",
  TZ: "UTC",
  SHELL: "/bin/bash",
  VOUCH_CANARY_SECRET: "canary-value-1234",
  ANTHROPIC_API_KEY: "sk-ant-secret",
  ANTHROPIC_MODEL: "claude-x",
  ANTHROPIC_BASE_URL: "http://proxy",
  CLAUDE_CODE_USE_BEDROCK: "1",
  OPENAI_API_KEY: "sk-openai",
  CODEX_API_KEY: "codex",
  GEMINI_API_KEY: "gemini",
  GOOGLE_APPLICATION_CREDENTIALS: "/creds.json",
  AWS_SECRET_ACCESS_KEY: "aws",
  GITHUB_TOKEN: "ghp",
  CLAUDECODE: "1",
  NODE_OPTIONS: "--require evil.js",
  UNSET_ONE: undefined,
};

/** What a real child process sees, as NAME -> value. */
async function childSees(env: Record<string, string>): Promise<Record<string, string>> {
  const r = await runProcess({ argv: [stub("print-env.sh")] }, { cwd: import.meta.dirname, env });
  expect(r.exit).toBe(0);
  const seen: Record<string, string> = {};
  for (const line of r.stdoutTail.trim().split("\n")) {
    const eq = line.indexOf("=");
    seen[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return seen;
}

describe("buildChildEnv", () => {
  test("by default only the allowlist passes: no credential, model switch or canary", () => {
    const { env, passed, missing } = buildChildEnv(PARENT, []);
    expect(Object.keys(env).sort()).toEqual(["HOME", "LANG", "LC_ALL", "LC_CTYPE", "PATH", "SHELL", "TERM", "TMPDIR", "TZ", "USER"]);
    expect(passed).toEqual([]);
    expect(missing).toEqual([]);
  });

  test("W3C trace context passes (a child's spans nest in vouch's trace); a traced session's own span wins", () => {
    const trace = { TRACEPARENT: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", TRACESTATE: "a=1" };
    expect(buildChildEnv({ ...PARENT, ...trace }, []).env).toMatchObject(trace);
    const own = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    expect(buildChildEnv({ ...PARENT, ...trace }, [], { TRACEPARENT: own }).env.TRACEPARENT).toBe(own);
  });

  test("a named variable passes and is reported by name, never by value", () => {
    const result = buildChildEnv(PARENT, ["ANTHROPIC_API_KEY", "VOUCH_CANARY_SECRET"]);
    expect(result.env.ANTHROPIC_API_KEY).toBe("sk-ant-secret");
    expect(result.env.VOUCH_CANARY_SECRET).toBe("canary-value-1234");
    expect(result.passed).toEqual(["ANTHROPIC_API_KEY", "VOUCH_CANARY_SECRET"]);
    expect(JSON.stringify({ passed: result.passed, missing: result.missing })).not.toContain("sk-ant-secret");
    expect(result.env.OPENAI_API_KEY).toBeUndefined();
  });

  test("CLAUDECODE is removed even when named, and even from the engine's vars", () => {
    const { env, passed } = buildChildEnv(PARENT, ["CLAUDECODE"], { CLAUDECODE: "1" });
    expect(env.CLAUDECODE).toBeUndefined();
    expect(passed).toEqual([]);
  });

  test("a named variable the parent lacks is reported missing, not set", () => {
    const { env, passed, missing } = buildChildEnv(PARENT, ["UNSET_ONE", "NEVER_SET", "GITHUB_TOKEN", "GITHUB_TOKEN"]);
    expect(passed).toEqual(["GITHUB_TOKEN"]);
    expect(missing).toEqual(["UNSET_ONE", "NEVER_SET"]);
    expect("UNSET_ONE" in env).toBe(false);
  });

  test("the engine's VOUCH_* vars are added and win over a parent value", () => {
    const { env } = buildChildEnv({ ...PARENT, VOUCH_RUN_ID: "from-parent" }, [], {
      VOUCH_RUN_ID: "r1",
      VOUCH_STATE_FILE: "/t/state.json",
    });
    expect(env.VOUCH_RUN_ID).toBe("r1");
    expect(env.VOUCH_STATE_FILE).toBe("/t/state.json");
  });

  test("parentEnv is a copy of vouch's environment (changing it changes nothing)", () => {
    const copy = parentEnv();
    expect(copy.PATH).toBe(process.env.PATH);
    copy.PATH = "changed";
    expect(process.env.PATH).not.toBe("changed");
  });
});

describe("what a real child sees", () => {
  test("a canary and a credential set in the parent are absent in the child unless named", async () => {
    const seen = await childSees(buildChildEnv(PARENT, []).env);
    expect(seen.VOUCH_CANARY_SECRET).toBeUndefined();
    expect(seen.ANTHROPIC_API_KEY).toBeUndefined();
    expect(seen.CLAUDECODE).toBeUndefined();
    expect(seen.NODE_OPTIONS).toBeUndefined();
    expect(seen.HOME).toBe("/home/someone");
    expect(JSON.stringify(seen)).not.toMatch(/canary-value|sk-ant|sk-openai|ghp|aws/);
  });

  test("named, they are present in the child with their values", async () => {
    const seen = await childSees(buildChildEnv(PARENT, ["VOUCH_CANARY_SECRET", "ANTHROPIC_API_KEY"]).env);
    expect(seen.VOUCH_CANARY_SECRET).toBe("canary-value-1234");
    expect(seen.ANTHROPIC_API_KEY).toBe("sk-ant-secret");
    expect(seen.OPENAI_API_KEY).toBeUndefined();
  });

  test("vouch's own real environment does not leak: a canary set in process.env stays out", async () => {
    process.env.VOUCH_CANARY_SECRET = "real-canary";
    try {
      const seen = await childSees(buildChildEnv(parentEnv(), []).env);
      expect(seen.VOUCH_CANARY_SECRET).toBeUndefined();
      const named = await childSees(buildChildEnv(parentEnv(), ["VOUCH_CANARY_SECRET"]).env);
      expect(named.VOUCH_CANARY_SECRET).toBe("real-canary");
    } finally {
      delete process.env.VOUCH_CANARY_SECRET;
    }
  });
});
