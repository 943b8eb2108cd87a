// `vouch doctor`'s probes (ADR 0018): the command lines vouch would send each
// agent CLI — one with every flag it may pass, one more per permission mode —
// run where no model call can happen (empty prompt channel, a throwaway HOME
// with no credentials, base URLs on a closed local port), and a pure reading
// of how each CLI's own parser answered (`probe` of its adapter,
// src/spawn/harness/<name>/probe.ts). Every adapter with a probe is probed.
import type { AgentAssignment, HarnessName } from "../../engine/ports.ts";
import { PROCESS_ADAPTERS } from "./registry.ts";
import type { DoctorProbe, HarnessAdapter, ProbeAnswer, ProbeVerdict, TestedVersion } from "./types.ts";

/** An agent CLI `vouch doctor` checks: a program of its own, a tested version and a probe. */
export type ProbedAdapter = HarnessAdapter & { binary: string; testedVersion: TestedVersion; probe: DoctorProbe };

const isProbed = (a: HarnessAdapter): a is ProbedAdapter => a.binary !== null && a.testedVersion !== undefined && a.probe !== undefined;

/** The adapters `vouch doctor` probes, in the registry's order. */
export const DOCTOR_ADAPTERS: Readonly<Partial<Record<HarnessName, ProbedAdapter>>> = Object.fromEntries(
  Object.values(PROCESS_ADAPTERS).flatMap((a) => (isProbed(a) ? [[a.name, a]] : [])),
);

/** The names of the CLIs `vouch doctor` probes. */
export const DOCTOR_CLIS = Object.keys(DOCTOR_ADAPTERS) as HarnessName[];

/** Variables set for every probe (with PATH and a throwaway HOME): every CLI's, so none
 *  reaches a provider through another's variable. */
export const PROBE_ENV: Readonly<Record<string, string>> = Object.assign({}, ...DOCTOR_CLIS.map((c) => DOCTOR_ADAPTERS[c]!.probe.env));

export function doctorAdapter(cli: HarnessName): ProbedAdapter {
  const adapter = DOCTOR_ADAPTERS[cli];
  if (!adapter) throw new Error(`no doctor probe for harness "${cli}"`);
  return adapter;
}

/** The assignments whose command lines are probed for `cli`. */
export function probeAssignments(cli: HarnessName, cwd: string): AgentAssignment[] {
  const adapter = doctorAdapter(cli);
  const g = adapter.guarantees;
  const modes = adapter.permissionModes ?? [];
  const base: AgentAssignment = {
    runId: "doctor",
    node: "doctor",
    attempt: 1,
    harness: cli,
    prompt: "", // the prompt channel stays empty: no CLI may start a model call
    cwd,
    passEnv: [],
    caps: {
      ...(g.caps.turns === "native" ? { turns: 3 } : {}),
      ...(g.caps.budget_usd === "native" ? { budgetUsd: 0.5 } : {}),
      wallMs: 60_000,
      idleMs: 30_000,
    },
    output: { format: "text" },
    ...(g.model ? { model: "vouch-doctor-model" } : {}),
    ...(g.tools ? { tools: ["Read", "Bash(git diff:*)"] } : {}),
  };
  const full = modes[0] !== undefined && g.permissionMode ? { ...base, permissionMode: modes[0] } : base;
  return [full, ...modes.slice(1).map((m) => ({ ...base, permissionMode: m }))];
}

/** How `cli`'s parser answered one probe, and the line that says so. */
export function classifyProbe(cli: HarnessName, a: ProbeAnswer): { verdict: ProbeVerdict; detail: string } {
  return doctorAdapter(cli).probe.classify(a);
}
