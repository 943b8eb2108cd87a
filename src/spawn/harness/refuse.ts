// The shared refusal (docs/architecture.md §6): before any process starts, reject what
// the chosen harness cannot keep — a cap it has no way to enforce or even
// notice, a model/tools/permission setting it would ignore — and what no
// harness can run: a negative cap, an empty prompt, a missing working
// directory. Every message names the harness and the field.
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { CapName } from "../../engine/events.ts";
import type { AgentPlan, Refusal, SittingCaps } from "../../engine/ports.ts";
import type { Guarantees, HarnessDescriptor } from "./types.ts";
import { sessionRefusal } from "../../engine/sessions.ts";

/** The graph's cap names and where each lives in SittingCaps. */
export const CAP_FIELDS: readonly { cap: CapName; key: keyof SittingCaps }[] = [
  { cap: "turns", key: "turns" },
  { cap: "budget_usd", key: "budgetUsd" },
  { cap: "wall", key: "wallMs" },
  { cap: "idle", key: "idleMs" },
];

const WHY_NOT: Record<CapName, string> = {
  turns: "it has no turn limit and reports no turn count",
  budget_usd: "it has no budget limit and reports no cost in US dollars",
  wall: "its run time cannot be supervised",
  idle: "its output cannot be supervised",
};

export interface RefuseOptions {
  /** Other harnesses that would keep a refused cap, named in the message. */
  alternatives?: (cap: CapName) => string[];
  /** Whether to check the working directory on disk (default true). */
  checkCwd?: boolean;
}

export function refuse(harness: HarnessDescriptor, plan: AgentPlan, options: RefuseOptions = {}): Refusal[] {
  const out: Refusal[] = [];
  const name = harness.name;
  const no = (field: string, message: string) => out.push({ harness: name, field, message: `harness "${name}": ${message}` });
  // What this node's sittings get: per agent for a protocol harness (acp).
  const guarantees = harness.guaranteesFor?.(plan) ?? harness.guarantees;
  const problem = harness.planProblem?.(plan);
  if (problem) no("harness", problem);

  capRefusals(harness, plan, guarantees, options, no);

  if (plan.model !== undefined && !guarantees.model) {
    no("model", `does not honour model (got "${plan.model}"): remove it, or choose a harness that does`);
  }
  if (plan.tools !== undefined && !guarantees.tools) {
    no("tools", `cannot restrict tools (got [${plan.tools.join(", ")}]): remove tools, or choose a harness that keeps a tool list`);
  }
  if (plan.permissionMode !== undefined) {
    if (!guarantees.permissionMode) {
      no("permission_mode", `does not honour permission_mode (got "${plan.permissionMode}"): remove it`);
    } else if (harness.permissionModes && !harness.permissionModes.includes(plan.permissionMode)) {
      no("permission_mode", `unknown permission_mode "${plan.permissionMode}": use one of ${harness.permissionModes.join(", ")}`);
    }
  }

  sessionRefusals(harness, plan, no);
  if (plan.prompt !== undefined && plan.prompt.trim() === "") {
    no("prompt", "the prompt is empty: a sitting needs something to do");
  }
  if (plan.cwd !== undefined && options.checkCwd !== false) {
    const problem = cwdProblem(plan.cwd);
    if (problem) no("cwd", problem);
  }
  return out;
}

type Refuse = (field: string, message: string) => void;

/** A cap that is not a positive number, or one the harness (or its agent) cannot keep. */
function capRefusals(harness: HarnessDescriptor, plan: AgentPlan, guarantees: Guarantees, options: RefuseOptions, no: Refuse): void {
  for (const { cap, key } of CAP_FIELDS) {
    const value = plan.caps[key];
    if (value === undefined) continue;
    const field = `caps.${cap}`;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      no(field, `${field} must be a number greater than zero, not ${String(value)}`);
      continue;
    }
    if (cap === "turns" && !Number.isInteger(value)) {
      no(field, `${field} must be a whole number, not ${value}`);
      continue;
    }
    if (guarantees.caps[cap] === "none") {
      const others = options.alternatives?.(cap) ?? [];
      const hint = others.length > 0 ? ` (harnesses that keep it: ${others.join(", ")})` : "";
      const agent = harness.agents && plan.acp ? `the agent ${plan.acp.command[0]} (${agentWhy(harness, cap)})` : "";
      no(field, `cannot keep ${field}${agent ? ` with ${agent}` : ""}: ${WHY_NOT[cap]}; remove the cap or choose another harness${hint}`);
    }
  }
}

/** A session mode the harness (or its agent) cannot continue. */
function sessionRefusals(harness: HarnessDescriptor, plan: AgentPlan, no: Refuse): void {
  const name = harness.name;
  const sessions = harness.sessionsFor?.(plan) ?? harness.sessions;
  for (const mode of plan.sessionModes ?? []) {
    if (sessions?.[mode]) continue;
    if (harness.sessions?.[mode] && plan.acp) {
      no(
        mode === "fork" ? "session.fork" : "session",
        `the agent ${plan.acp.command[0]} cannot resume a session with vouch (docs/real-clis.md, ACP agents)`,
      );
      continue;
    }
    const field = mode === "fork" ? "session.fork" : "session";
    no(field, sessionRefusal(name, mode, field) ?? `${field}: cannot ${mode === "fork" ? "fork" : "resume"} a session`);
  }
}

/** Why a protocol harness's agent cannot keep `cap`: an untested agent, or one that has no way to. */
function agentWhy(harness: HarnessDescriptor, cap: CapName): string {
  const tested = harness.agents?.filter((a) => a.guarantees.caps[cap] !== "none").map((a) => a.name) ?? [];
  return tested.length > 0 ? `vouch keeps it only for ${tested.join(", ")}` : "no tested agent lets vouch keep it";
}

function cwdProblem(cwd: string): string | null {
  if (cwd.trim() === "") return "the working directory (cwd) is empty";
  if (!isAbsolute(cwd)) return `the working directory "${cwd}" is not an absolute path`;
  try {
    if (!statSync(cwd).isDirectory()) return `the working directory "${cwd}" is not a directory`;
  } catch {
    return `the working directory "${cwd}" does not exist: create it first or fix cwd`;
  }
  return null;
}
