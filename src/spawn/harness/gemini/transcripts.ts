// Where gemini keeps a session's transcript (path seen with the pinned CLI,
// docs/real-clis.md): ~/.gemini/tmp/<project>/chats/session-<time>-<first 8 of
// the id>.json[l]. The name holds only 8 characters of the id: the file's start
// names the whole one.
import { join } from "node:path";
import { head, isFile, list } from "../common/store-files.ts";
import type { TranscriptStore } from "../types.ts";

export const geminiTranscripts: TranscriptStore = {
  where: "~/.gemini/tmp",
  find(id, env) {
    if (!env.HOME) return null;
    const tmp = join(env.HOME, ".gemini", "tmp");
    const short = id.slice(0, 8);
    for (const project of list(tmp)) {
      const chats = join(tmp, project, "chats");
      for (const f of list(chats)) {
        if (!f.startsWith("session-") || !(f.endsWith(`-${short}.jsonl`) || f.endsWith(`-${short}.json`))) continue;
        if (isFile(join(chats, f)) && head(join(chats, f)).includes(`"${id}"`)) return join(chats, f);
      }
    }
    return null;
  },
};
