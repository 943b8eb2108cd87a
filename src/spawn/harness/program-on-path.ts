// An agent CLI that is not installed is said before the run starts (issue 27 item
// 18): the plan's refusal (exit 2) names the program, the PATH searched and how
// to install it, instead of every node of that harness ending `error unavailable`
// once the run is under way. Looked up as the spawn seam will (Bun.which on the
// PATH the child gets, which buildChildEnv takes from vouch's own).
import type { AgentPlan } from "../../engine/ports.ts";
import { agentOf } from "./acp/agents.ts";
import type { HarnessDescriptor, TestedVersion } from "./types.ts";

/** The program a harness's sittings start, where it is known before the run, and what installs it. */
export interface AgentProgram {
  program: string | null;
  /** The field that names it, for the refusal. */
  field: string;
  install?: TestedVersion;
  /** Whether `vouch doctor` probes it (not an ACP agent: its parser is the graph's command line). */
  doctor: boolean;
}

export function agentProgram(harness: HarnessDescriptor, plan: AgentPlan, commandArgv: readonly string[] | undefined): AgentProgram {
  // The acp harness starts the graph's acp.command (ADR 0051); a missing one is the harness's own refusal.
  if (harness.name === "acp") {
    const program = plan.acp?.command?.[0] ?? null;
    const install = agentOf(plan.acp?.command)?.testedVersion;
    return { program, field: "acp.command", doctor: false, ...(install ? { install } : {}) };
  }
  const program = harness.binary ?? (harness.name === "command" ? (commandArgv?.[0] ?? null) : null);
  return { program, field: "harness", doctor: true, ...(harness.testedVersion ? { install: harness.testedVersion } : {}) };
}

/** Why the program cannot be found, or null. Only bare names are looked up: a path (the command
 *  harness's ./script, an acp.command of ./agent) is relative to the sitting's folder, checked when it starts. */
export function missingProgram(p: AgentProgram, env: Readonly<Record<string, string | undefined>>): string | null {
  const { program } = p;
  if (program === null || program === "" || program.includes("/")) return null;
  const path = env.PATH ?? "";
  if (Bun.which(program, { PATH: path }) !== null) return null;
  const install = p.install ? `install it (npm install -g ${p.install.package}) or ` : "";
  const doctor = p.doctor ? "; vouch doctor checks every harness" : "";
  return `${program} was not found on PATH (searched ${path === "" ? "an empty PATH" : path}): ${install}put it on PATH${doctor}`;
}
