// A sealed process whose sandbox could not be set up (ADR 0040): bubblewrap then
// exits 1 before the command starts and says why on stderr, "bwrap: …" first.
// That is no exit of the command (a check would read it as failed): it is a
// start that failed, with bubblewrap's words. The command's own output comes
// only after the setup, so a first stderr line of its own cannot begin there;
// a command that prints such a line itself only turns its own result into an
// error (no verdict), never into a pass.
import type { ProcessResult } from "../process-types.ts";

const SETUP_FAILED = /^bwrap: (.+)$/m;

/** The result as the command had it, or a failed start when bubblewrap could not set up. */
export function sealedResult(r: ProcessResult): ProcessResult {
  if (r.exit !== 1 || r.terminationReason !== "exit" || r.stdoutBytes > 0 || r.truncated) return r;
  const first = r.stderrTail.split("\n", 1)[0] ?? "";
  const m = SETUP_FAILED.exec(first);
  if (m === null) return r;
  return { ...r, exit: null, terminationReason: "spawn_failed", spawnError: `the sandbox could not be set up: ${m[1]}` };
}
