// `--sandbox auto|required|off` of `vouch run` and `vouch resume`, the session's
// one probe of the sandbox (ADR 0040), and the run's one warning when nodes run
// unsealed because sealing does not work here.
import { UsageError } from "../engine/errors.ts";
import { anyNodeSeals, type RunOptions } from "../engine/run.ts";
import type { RunPlan } from "../engine/run/types.ts";
import { NOT_PROBED, SANDBOX_MODES, type SandboxAvailability, type SandboxMode } from "../engine/sandbox.ts";
import { availability, SandboxProbe } from "../spawn/sandbox/probe.ts";
import { sanitize } from "../tui/text.ts";

export const SANDBOX_OPTION = { sandbox: { type: "string" } } as const;

export function sandboxFlag(value: string | undefined): SandboxMode | undefined {
  if (value === undefined) return undefined;
  if (!(SANDBOX_MODES as readonly string[]).includes(value))
    throw new UsageError(
      `--sandbox "${value}" is not a sandbox setting (settings: ${SANDBOX_MODES.join(", ")})`,
      "see: vouch doctor (whether sealing works here)",
    );
  return value as SandboxMode;
}

/** The session's probe, and what it found; not run when no node of the run would be sealed. */
export async function probeForRun(
  options: Pick<RunOptions, "graph" | "graphPath" | "subgraphs" | "sandbox">,
  env: Record<string, string | undefined>,
): Promise<{ probe: SandboxProbe; sandboxAvailability: SandboxAvailability }> {
  const probe = new SandboxProbe({ ...env });
  if (!anyNodeSeals(options)) return { probe, sandboxAvailability: NOT_PROBED };
  return { probe, sandboxAvailability: availability(await probe.check()) };
}

/** One warning for the whole run: which nodes run unsealed because sealing does not work here. */
export function warnUnsealed(plan: Pick<RunPlan, "unsealed">, err: (text: string) => void): void {
  if (plan.unsealed.length === 0) return;
  const nodes = plan.unsealed.map((u) => u.node);
  const shown = nodes.length > 5 ? `${nodes.slice(0, 5).join(", ")} and ${nodes.length - 5} more` : nodes.join(", ");
  const what = plan.unsealed[0]!.reason;
  err(
    sanitize(
      `vouch: warning: ${what}; ${nodes.length === 1 ? "node" : `${nodes.length} nodes`} run${nodes.length === 1 ? "s" : ""} unsealed (${shown}): a sitting can write outside its tree and leave processes behind. vouch doctor says why; --sandbox required refuses to run so, --sandbox off runs so without this warning\n`,
    ),
  );
}
