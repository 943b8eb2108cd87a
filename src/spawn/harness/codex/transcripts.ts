// Where codex keeps a session's transcript (path seen with the pinned CLI,
// docs/real-clis.md): $CODEX_HOME (else ~/.codex)
// /sessions/YYYY/MM/DD/rollout-<time>-<thread_id>.jsonl, found by file name.
import { join } from "node:path";
import { cliHome, isFile, list } from "../common/store-files.ts";
import type { TranscriptStore } from "../types.ts";

export const codexTranscripts: TranscriptStore = {
  where: "$CODEX_HOME or ~/.codex/sessions",
  find(id, env) {
    const home = cliHome(env, "CODEX_HOME", ".codex");
    if (!home) return null;
    const sessions = join(home, "sessions");
    for (const y of list(sessions)) {
      for (const m of list(join(sessions, y))) {
        for (const d of list(join(sessions, y, m))) {
          const day = join(sessions, y, m, d);
          const name = list(day).find((f) => f.startsWith("rollout-") && f.endsWith(`-${id}.jsonl`));
          if (name && isFile(join(day, name))) return join(day, name);
        }
      }
    }
    return null;
  },
};
