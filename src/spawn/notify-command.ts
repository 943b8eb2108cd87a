// A notifier's program (ADR 0064), through the one process seam: argv as the
// graph or --notify wrote it (static; nothing of the event is on its command
// line), the event as JSON on stdin, the environment from buildChildEnv (the
// allowlist and the names the notifier lists), the whole group killed at its
// timeout. Resolves with why it did not succeed, or null; it never throws.
import { buildChildEnv } from "./child-env.ts";
import { runProcess } from "./process.ts";

export interface NotifyCommand {
  argv: string[];
  /** The event as JSON: written to stdin, then stdin is closed. */
  payload: string;
  cwd: string;
  parentEnv: Record<string, string | undefined>;
  /** Names passed beyond the allowlist (the notifier's env:). */
  passEnv: string[];
  timeoutMs: number;
}

/** Bytes of stderr kept to say why a program failed. */
const KEEP = 4096;

export async function runNotifyCommand(c: NotifyCommand): Promise<string | null> {
  const { env } = buildChildEnv(c.parentEnv, c.passEnv);
  const r = await runProcess({ argv: c.argv }, { cwd: c.cwd, env, stdin: c.payload, wallMs: c.timeoutMs, keepBytes: KEEP, graceMs: 500 });
  if (r.terminationReason === "spawn_failed") return r.spawnError ?? "it could not start";
  if (r.terminationReason === "wall") return `it did not end within ${Math.round(c.timeoutMs / 100) / 10}s (stopped)`;
  if (r.exit === 0) return null;
  const tail = r.stderrTail.trim().split("\n").pop() ?? "";
  return `it exited ${r.exit ?? `by ${r.signal}`}${tail === "" ? "" : `: ${tail.slice(0, 200)}`}`;
}
