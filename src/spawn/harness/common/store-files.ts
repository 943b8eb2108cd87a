// The file-system reads a transcript store makes (src/spawn/harness/<name>/transcripts.ts):
// a CLI's own folder, a folder's entries, whether a path is a file, a file's bounded
// start. None throws.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";

/** The entries of `dir`, sorted; none when it cannot be read. */
export function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

export function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The first 4 KiB of a file, as text (bounded: a transcript can be large). */
export function head(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(4096);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** The folder a CLI keeps its state in: `$VARIABLE` when set, else `~/<dotFolder>`; null without either. */
export function cliHome(env: Readonly<Record<string, string | undefined>>, variable: string, dotFolder: string): string | null {
  if (env[variable]) return env[variable]!;
  return env.HOME ? join(env.HOME, dotFolder) : null;
}
