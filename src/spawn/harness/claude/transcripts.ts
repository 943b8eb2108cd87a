// Where claude keeps a session's transcript (path seen with the pinned CLI,
// docs/real-clis.md): $CLAUDE_CONFIG_DIR (else ~/.claude)
// /projects/<folder>/<session_id>.jsonl. Found by file name, not rebuilt from
// the cwd (the cwd-to-folder rules change between versions).
import { join } from "node:path";
import { cliHome, isFile, list } from "../common/store-files.ts";
import type { TranscriptStore } from "../types.ts";

export const claudeTranscripts: TranscriptStore = {
  where: "$CLAUDE_CONFIG_DIR or ~/.claude/projects",
  find(id, env) {
    const config = cliHome(env, "CLAUDE_CONFIG_DIR", ".claude");
    if (!config) return null;
    const projects = join(config, "projects");
    for (const folder of list(projects)) {
      const candidate = join(projects, folder, `${id}.jsonl`);
      if (isFile(candidate)) return candidate;
    }
    return null;
  },
};
