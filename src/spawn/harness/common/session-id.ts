// A session id as it may reach a command line (ADR 0023): checked again here
// (the engine already did), so one that could be read as a flag, or that
// carries an escape sequence, never reaches argv. Each harness's own session
// words are in its adapter (sessionArgs in src/spawn/harness/<name>/adapter.ts).
import { SpawnError } from "../../../engine/errors.ts";
import { usableSessionId } from "../../../engine/sessions.ts";
import type { SessionToContinue } from "../types.ts";

/** The session's id, or a SpawnError naming `harness` when it is no id. */
export function checkedSessionId(s: SessionToContinue, harness: string): string {
  const id: string = s.id;
  if (!usableSessionId(id)) {
    throw new SpawnError(
      `${harness}: refusing to ${s.mode} session ${JSON.stringify(String(id).slice(0, 60))}: not a session id`,
      "a session id holds only letters, digits, - and _, and does not start with -",
    );
  }
  return s.id;
}
