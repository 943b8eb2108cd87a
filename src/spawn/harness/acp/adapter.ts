// The `acp` harness (ADR 0051): any agent that speaks the Agent Client Protocol
// (JSON-RPC over its stdin and stdout) — gemini --acp, claude-code-acp,
// codex-acp, qwen --acp — started by the command line the graph names
// (`acp: { command: [gemini, --acp] }`). vouch is the client: it sends the
// prompt, reads the updates and answers the agent's permission requests by the
// node's permission_mode (permissions.ts). What vouch can keep depends on the
// agent (agents.ts): wall and idle always, turns for the agents whose tool
// calls it has counted against the real program, budget for none yet.
import type { AgentAssignment } from "../../../engine/ports.ts";
import { SpawnError } from "../../../engine/errors.ts";
import { SESSION_SUPPORT } from "../../../engine/harnesses.ts";
import { supervision } from "../common/argv-format.ts";
import type { HarnessAdapter, HarnessCommand } from "../types.ts";
import { ACP_AGENTS, acpGuarantees, agentOf, ANY_AGENT_GUARANTEES } from "./agents.ts";
import { ACP_PERMISSION_MODES } from "./permissions.ts";
import { createAcpParser } from "./stream.ts";

export const MISSING_ACP_COMMAND =
  "harness acp needs the agent's command line: acp: { command: [gemini, --acp] } on the node or under defaults";

export function buildAcpCommand(a: AgentAssignment): HarnessCommand {
  const argv = a.acp?.command;
  if (!argv || argv.length === 0) throw new SpawnError(MISSING_ACP_COMMAND, "see docs/graph-language.md, harness acp");
  // The prompt goes in session/prompt, never on the command line.
  return { argv: [...argv], conversation: true, ...supervision(acpGuarantees(argv), a) };
}

export const acpAdapter: HarnessAdapter = {
  name: "acp",
  starter: {
    comment: "any agent that speaks ACP on stdio, here gemini --acp; vouch harnesses lists the tested agents",
    rows: [
      ["acp: { command: [gemini, --acp] }", "the agent's command line (claude-code-acp, codex-acp, qwen --acp … work too)"],
      ["permission_mode: accept-edits", "vouch answers the agent's permission requests: file edits yes, commands no"],
    ],
    caps: ["caps: { turns: 40, wall: 30m }", "one sitting stops past 40 turns or 30 minutes (gemini reports no cost)"],
  },
  binary: null,
  protocol: "json-stream",
  guarantees: ANY_AGENT_GUARANTEES,
  guaranteesFor: (plan) => acpGuarantees(plan.acp?.command),
  planProblem: (plan) => (plan.acp?.command?.length ? null : MISSING_ACP_COMMAND),
  agents: ACP_AGENTS.map((g) => ({
    name: g.name,
    program: g.program,
    command: g.command,
    guarantees: g.guarantees,
    testedVersion: g.testedVersion,
  })),
  permissionModes: ACP_PERMISSION_MODES,
  sessions: SESSION_SUPPORT.acp,
  // A tested agent resumes as measured; any other agent is tried (session/resume or session/load).
  sessionsFor: (plan) => agentOf(plan.acp?.command)?.sessions,
  readOnly: { permission_mode: "deny" },
  noProgram: "the agent is the graph's acp.command (tested agents below)",
  // A tested agent's own folders; any other agent writes only its tree and TMPDIR when sealed.
  stateDirs: (env, plan) => agentOf(plan.acp?.command)?.stateDirs(env) ?? [],
  stateFiles: (env, plan) => agentOf(plan.acp?.command)?.stateFiles?.(env) ?? [],
  buildCommand: buildAcpCommand,
  createParser: (a) =>
    createAcpParser(a, agentOf(a.acp?.command)?.name ?? a.acp?.command[0] ?? "?", acpGuarantees(a.acp?.command).caps.turns !== "none"),
};
