// What every claude contract test shares: the environment that points the
// real claude at the fake Anthropic server (and nowhere else), and a one-node
// graph around the agent under test.
import { startFakeAnthropic, type FakeAnthropic, type Script } from "../servers/anthropic.ts";
import { throwawayHome, type ThrowawayHome } from "./home.ts";
import { runThroughVouch, type ContractResult } from "./run.ts";

/** A key of the right form that no real service accepts. */
export const FAKE_ANTHROPIC_KEY = "sk-ant-api03-contract-test-fake-key-000000";

/** claude's own retries on 429/500/529: the default (~10, over ~3 minutes)
 *  would make one scenario take minutes; 2 keeps the retry lines and takes seconds. */
export const FAST_RETRIES = "2";

export function claudeEnv(server: FakeAnthropic, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    // No telemetry, update checks or other calls besides the model's.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: FAST_RETRIES,
    ...extra,
  };
}

export interface AgentNodeSpec {
  prompt?: string;
  /** YAML flow text for the node's extra fields, e.g. `caps: { turns: 2 }`. */
  fields?: string[];
}

/** A graph with one agent node `ask` (claude, the given fields). */
export function oneAgentGraph(spec: AgentNodeSpec = {}): string {
  const fields = (spec.fields ?? []).map((f) => `    ${f}\n`).join("");
  return `version: 1\nname: contract\nnodes:\n  ask:\n    kind: agent\n    prompt: ${JSON.stringify(spec.prompt ?? "Say hello.")}\n${fields}`;
}

export interface ClaudeScenario {
  script: Script;
  graph?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Keep the throwaway home (its ledger) for more commands; the caller then calls home.cleanup(). */
  keepHome?: boolean;
}

export interface ClaudeScenarioResult extends ContractResult {
  server: FakeAnthropic;
  home: ThrowawayHome;
}

/** One scenario end to end: a fake server with the script, a throwaway home, dist/vouch with the real claude. */
export async function runClaudeScenario(s: ClaudeScenario): Promise<ClaudeScenarioResult> {
  const server = startFakeAnthropic(s.script);
  const home = throwawayHome("claude");
  try {
    const r = await runThroughVouch({
      cli: "claude",
      home,
      graph: s.graph ?? oneAgentGraph(),
      env: claudeEnv(server, s.env),
      ...(s.args ? { args: s.args } : {}),
    });
    return { ...r, server, home };
  } finally {
    await server.stop();
    if (!s.keepHome) home.cleanup();
  }
}
