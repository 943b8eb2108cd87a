// Where claude keeps a session's transcript (path seen with the pinned CLI,
// docs/real-clis.md): $CLAUDE_CONFIG_DIR (else ~/.claude)
// /projects/<folder>/<session_id>.jsonl. Found by file name, not rebuilt from
// the cwd (the cwd-to-folder rules change between versions).
import { join } from "node:path";
import { isFile, list } from "../common/store-files.ts";
import type { TranscriptStore } from "../types.ts";

type Env = Readonly<Record<string, string | undefined>>;

export function claudeConfigDir(env: Env): string | null {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  return env.HOME ? join(env.HOME, ".claude") : null;
}

export const claudeTranscripts: TranscriptStore = {
  where: "$CLAUDE_CONFIG_DIR or ~/.claude/projects",
  find(id, env) {
    const config = claudeConfigDir(env);
    if (!config) return null;
    const projects = join(config, "projects");
    for (const folder of list(projects)) {
      const candidate = join(projects, folder, `${id}.jsonl`);
      if (isFile(candidate)) return candidate;
    }
    return null;
  },
};
