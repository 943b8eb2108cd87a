// Where Claude Code keeps a session's transcript, for `vouch show`:
// `$CLAUDE_CONFIG_DIR` (else `~/.claude`) + `/projects/<cwd with / as ->/<session_id>.jsonl`.
// The project folder is found by file name match, not rebuilt from the cwd
// (the cwd-to-folder rule has changed between versions).
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Session ids are UUIDs; anything else could walk out of the folder. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function claudeConfigDir(env: Record<string, string | undefined>): string | null {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  return env.HOME ? join(env.HOME, ".claude") : null;
}

/** The transcript file of a session, or null when it cannot be found. */
export function findTranscript(sessionId: string, env: Record<string, string | undefined>): string | null {
  if (!SESSION_ID.test(sessionId)) return null;
  const config = claudeConfigDir(env);
  if (!config) return null;
  const projects = join(config, "projects");
  let folders: string[];
  try {
    folders = readdirSync(projects);
  } catch {
    return null;
  }
  for (const folder of folders.sort()) {
    const candidate = join(projects, folder, `${sessionId}.jsonl`);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}
