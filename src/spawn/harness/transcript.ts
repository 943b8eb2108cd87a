// Where each CLI keeps a session's transcript, for `vouch show` (paths seen
// with the pinned CLIs, docs/real-clis.md):
//   claude  $CLAUDE_CONFIG_DIR (else ~/.claude) /projects/<folder>/<session_id>.jsonl
//   codex   $CODEX_HOME (else ~/.codex) /sessions/YYYY/MM/DD/rollout-<time>-<thread_id>.jsonl
//   gemini  ~/.gemini/tmp/<project>/chats/session-<time>-<first 8 of the id>.json[l]
// Found by file name, not rebuilt from the cwd (the cwd-to-folder rules change
// between versions). The ledger records no harness per attempt; ids are UUIDs,
// so the stores are searched in turn.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { SESSION_ID_PATTERN as SESSION_ID } from "../../engine/sessions.ts";

type Env = Record<string, string | undefined>;

export function claudeConfigDir(env: Env): string | null {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  return env.HOME ? join(env.HOME, ".claude") : null;
}

function codexHome(env: Env): string | null {
  if (env.CODEX_HOME) return env.CODEX_HOME;
  return env.HOME ? join(env.HOME, ".codex") : null;
}

/** The transcript file of a session, or null when it cannot be found. */
export function findTranscript(sessionId: string, env: Env): string | null {
  // Anything but an id could walk out of the folder.
  if (!SESSION_ID.test(sessionId)) return null;
  return claudeTranscript(sessionId, env) ?? codexTranscript(sessionId, env) ?? geminiTranscript(sessionId, env);
}

function claudeTranscript(id: string, env: Env): string | null {
  const config = claudeConfigDir(env);
  if (!config) return null;
  const projects = join(config, "projects");
  for (const folder of list(projects)) {
    const candidate = join(projects, folder, `${id}.jsonl`);
    if (isFile(candidate)) return candidate;
  }
  return null;
}

function codexTranscript(id: string, env: Env): string | null {
  const home = codexHome(env);
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
}

function geminiTranscript(id: string, env: Env): string | null {
  if (!env.HOME) return null;
  const tmp = join(env.HOME, ".gemini", "tmp");
  const short = id.slice(0, 8);
  for (const project of list(tmp)) {
    const chats = join(tmp, project, "chats");
    for (const f of list(chats)) {
      if (!f.startsWith("session-") || !(f.endsWith(`-${short}.jsonl`) || f.endsWith(`-${short}.json`))) continue;
      // The name holds only 8 characters of the id: the file's start names the whole one.
      if (isFile(join(chats, f)) && head(join(chats, f)).includes(`"${id}"`)) return join(chats, f);
    }
  }
  return null;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The first 4 KiB of a file, as text (bounded: a transcript can be large). */
function head(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(4096);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
