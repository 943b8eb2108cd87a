// Where a session's transcript is, for `vouch show`: each agent CLI's store
// (`transcripts` of its adapter, src/spawn/harness/<name>/transcripts.ts),
// searched in the registry's order. The ledger records no harness per attempt;
// ids are UUIDs, so the stores are searched in turn.
import { SESSION_ID_PATTERN as SESSION_ID } from "../../engine/sessions.ts";
import { HARNESSES } from "./registry.ts";
import type { TranscriptStore } from "./types.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** Every harness's store, in the registry's order. */
export const TRANSCRIPT_STORES: readonly (TranscriptStore & { harness: string })[] = HARNESSES.flatMap((h) =>
  h.transcripts ? [{ ...h.transcripts, harness: h.name }] : [],
);

/** The transcript file of a session, or null when it cannot be found. */
export function findTranscript(sessionId: string, env: Env): string | null {
  // Anything but an id could walk out of the folder.
  if (!SESSION_ID.test(sessionId)) return null;
  for (const store of TRANSCRIPT_STORES) {
    const found = store.find(sessionId, env);
    if (found !== null) return found;
  }
  return null;
}
