// The ACP agents vouch is tested with, and what each lets vouch keep (ADR 0051).
// ACP itself carries no turn or budget limit: vouch counts a sitting's turns from
// its `session/update`s and stops it at the cap (supervised), and can keep a
// budget only when the agent reports its cost in US dollars (`usage_update`).
// Whether an agent streams the updates a count needs, or reports a cost, is
// known only for the agents tried against the real program (the contract
// suite, docs/real-clis.md); any other agent is held to what every ACP agent
// must do — answer a prompt with a stop reason — so its turns and budget caps
// are refused before start. An agent is recognised by its program's name.
import { basename, join } from "node:path";
import { claudeStateDirs, claudeStateFiles } from "../common/claude-state.ts";
import type { StateFile } from "../../sandbox/confine.ts";
import type { SessionMode } from "../../../engine/harnesses.ts";
import type { Guarantees, TestedVersion } from "../types.ts";

export interface AcpAgent {
  /** The name `vouch harnesses` shows ("gemini", "claude-code-acp"). */
  name: string;
  /** The program's file name (command[0]'s basename). */
  program: string;
  /** How its docs start it in ACP mode, for messages and `vouch harnesses`. */
  command: readonly string[];
  guarantees: Guarantees;
  testedVersion: TestedVersion;
  /** Whether it exits when its stdin closes; otherwise vouch stops it once it answered. */
  exitsOnEof: boolean;
  /** What a later sitting can do with its session (ADR 0023), as measured against the real agent. */
  sessions: Readonly<Record<SessionMode, boolean>>;
  /** The folders it writes besides the tree (settings, sessions), writable when sealed (ADR 0040). */
  stateDirs(env: Readonly<Record<string, string | undefined>>): string[];
  /** Files it rewrites in place beside them (ADR 0040). */
  stateFiles?(env: Readonly<Record<string, string | undefined>>): StateFile[];
}

/** What vouch keeps of any ACP agent: the wall and idle caps (its own timers) and the permission answers. */
export const ANY_AGENT_GUARANTEES: Guarantees = {
  caps: { turns: "none", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: false,
  tools: false,
  permissionMode: true,
};

/** Tested agents: each streams its tool calls (turns supervised); neither reports a cost in dollars. */
const COUNTED: Guarantees = { ...ANY_AGENT_GUARANTEES, caps: { ...ANY_AGENT_GUARANTEES.caps, turns: "supervised" } };

export const ACP_AGENTS: readonly AcpAgent[] = [
  {
    name: "gemini",
    program: "gemini",
    command: ["gemini", "--acp"],
    guarantees: COUNTED,
    testedVersion: { package: "@google/gemini-cli", version: "0.61.0" },
    exitsOnEof: true,
    // It offers session/load, but 0.61.0 answers a session another process of it recorded with
    // "Invalid session identifier" (measured): resuming is refused before start.
    sessions: { resume: false, fork: false },
    stateDirs: (env) => (env.HOME ? [join(env.HOME, ".gemini")] : []),
  },
  {
    name: "claude-code-acp",
    program: "claude-code-acp",
    command: ["claude-code-acp"],
    guarantees: COUNTED,
    testedVersion: { package: "@zed-industries/claude-code-acp", version: "0.16.2" },
    exitsOnEof: false,
    sessions: { resume: true, fork: false },
    stateDirs: claudeStateDirs,
    stateFiles: claudeStateFiles,
  },
];

/** The tested agent a command line starts, or undefined for any other program. */
export function agentOf(command: readonly string[] | undefined): AcpAgent | undefined {
  const program = command?.[0];
  if (program === undefined) return undefined;
  const name = basename(program);
  return ACP_AGENTS.find((a) => a.program === name);
}

/** What vouch keeps of the agent `command` starts. */
export function acpGuarantees(command: readonly string[] | undefined): Guarantees {
  return agentOf(command)?.guarantees ?? ANY_AGENT_GUARANTEES;
}
