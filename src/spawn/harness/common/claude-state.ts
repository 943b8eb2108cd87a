// Where Claude Code keeps its state (ADR 0040): $CLAUDE_CONFIG_DIR, else ~/.claude,
// and beside it ~/.claude.json, a file it rewrites in place (a temporary file in
// the home folder first, then the file itself). Sealed, the home folder is
// read-only, so the file is bound writable on its own; the SDK that
// claude-code-acp runs ends its session setup when it cannot write it (measured:
// "Query closed before response received"). Shared by the claude harness and the
// acp harness's claude-code-acp agent.
import { join } from "node:path";
import type { StateFile } from "../../sandbox/confine.ts";
import { cliHome } from "./store-files.ts";

type Env = Readonly<Record<string, string | undefined>>;

export function claudeStateDirs(env: Env): string[] {
  const dir = cliHome(env, "CLAUDE_CONFIG_DIR", ".claude");
  return dir === null ? [] : [dir];
}

/** With CLAUDE_CONFIG_DIR the file lives in that folder, already writable. */
export function claudeStateFiles(env: Env): StateFile[] {
  if (env.CLAUDE_CONFIG_DIR || !env.HOME) return [];
  return [{ path: join(env.HOME, ".claude.json"), initial: "{}\n" }];
}
