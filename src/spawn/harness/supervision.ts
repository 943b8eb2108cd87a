// The stops the engine itself causes in a sitting (or cannot avoid): the
// backstop, the wall and idle caps, a cancel, a program that could not start —
// and the grace a sitting that already reported gets when the run is cancelled.
import type { AgentAssignment, Sitting } from "../../engine/ports.ts";
import type { ProcessResult } from "../process-types.ts";
import type { BackstopBreach } from "./overruns.ts";
import type { HarnessAdapter } from "./types.ts";

/** A cancel (the run stopping) for a sitting whose final report is already in:
 *  it has stopped by itself, and a run stop its own cost caused (claude's cost
 *  arrives with its result) must not turn its own stop — claude's budget or
 *  turns stop — into a kill it never needed. It gets a moment to exit; only
 *  one that hangs on is killed, and its reported stop still stands. */
export function cancelGuard(stop: { abort(): void }, reported: () => boolean, graceMs: number) {
  let reportedFirst = false;
  let lateKill: ReturnType<typeof setTimeout> | undefined;
  return {
    onCancel() {
      reportedFirst = reported();
      if (!reportedFirst) return stop.abort();
      lateKill = setTimeout(() => stop.abort(), graceMs);
      lateKill.unref?.();
    },
    reportedFirst: () => reportedFirst,
    dispose() {
      if (lateKill !== undefined) clearTimeout(lateKill);
    },
  };
}

/** What vouch killed: the group, and the processes that had left it (a detached shell's, process/strays.ts). */
function killedWhat(result: ProcessResult): string {
  const n = result.straysKilled ?? 0;
  return n > 0 ? `process group killed, and ${n} process${n === 1 ? "" : "es"} that had left it` : "process group killed";
}

/** The stop the engine itself caused (or could not avoid), if any. */
export function supervisionStop(
  result: ProcessResult,
  breach: BackstopBreach | null,
  adapter: HarnessAdapter,
  a: AgentAssignment,
): { stopReason: Sitting["stopReason"]; error: string } | null {
  const who = adapter.name;
  if (breach) {
    const what = breach.cap === "turns" ? `${breach.actual} turns` : `$${breach.actual}`;
    const limit = breach.cap === "turns" ? `${breach.limit}` : `$${breach.limit}`;
    return {
      stopReason: breach.cap === "turns" ? "turns" : "budget",
      error: `vouch backstop stopped ${who}: ${what} streamed against a ${breach.cap} cap of ${limit} (kill threshold ${breach.threshold})`,
    };
  }
  const killed = killedWhat(result);
  switch (result.terminationReason) {
    case "wall":
      return { stopReason: "wall", error: `${who} stopped by the wall cap (${a.caps.wallMs} ms); ${killed}` };
    case "idle":
      return {
        stopReason: "idle",
        error: `${who} stopped by the idle cap: ${adapter.quietLine ? "no progress" : "no output"} for ${a.caps.idleMs} ms${adapter.quietLine ? " (its reconnect and retry notices do not count)" : ""}; ${killed}`,
      };
    case "cancelled":
      return { stopReason: "cancelled", error: `${who} sitting cancelled` };
    case "spawn_failed": {
      // An E2BIG names its own cause; "is it installed?" would send the user the wrong way.
      const hint = adapter.binary && !result.spawnError?.includes("E2BIG") ? ` (is ${adapter.binary} installed and on PATH?)` : "";
      return { stopReason: "unavailable", error: `${who} could not be started: ${result.spawnError ?? "unknown reason"}${hint}` };
    }
    default:
      return null;
  }
}
