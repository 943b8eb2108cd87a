// Codex's model responses, counted from its session file (ADR 0050). `codex exec
// --json` shows a response only through its items, and a sandboxed command that
// fails to start (codex refuses to create its sandbox helper when CODEX_HOME is
// under the temp folder; a machine without user namespaces) shows no item at all:
// the model was asked again and again while the stream stayed silent (48 requests
// against `turns: 3`, reported as 4). The rollout file
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl) records every
// response as a `token_usage_record` with its `response_id`, written before codex
// sends the next request: that cannot be missed. Read incrementally, bounded per
// poll; only records stamped at or after the sitting's start count (a resumed
// thread's file holds its earlier sittings too). Never throws.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { cliHome, isFile, list } from "../common/store-files.ts";
import { codexTranscripts } from "./transcripts.ts";

/** Bytes read from the file per poll at most (a resumed thread's file can be large). */
export const ROLLOUT_READ_BYTES = 4 * 1024 * 1024;
/** A line longer than this is skipped, not kept (its instructions, a huge tool output). */
const MAX_KEPT_LINE = 1024 * 1024;
/** How often the whole sessions tree is searched while the day folders do not hold the file. */
const FULL_SEARCH_MS = 2_000;

export interface RolloutCounter {
  /** Reads what was appended since the last call; true when the count of responses grew. */
  read(threadId: string | undefined): boolean;
  /** Distinct model responses this sitting recorded. */
  readonly responses: number;
  /** Whether the file was found (the count means something). */
  readonly found: boolean;
}

export interface RolloutOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** When the sitting started (epoch ms): earlier records are another sitting's. */
  startedAt: number;
  now?: () => number;
}

export function rolloutCounter(o: RolloutOptions): RolloutCounter {
  const now = o.now ?? Date.now;
  let path: string | null = null;
  let offset = 0;
  let partial = "";
  let skipping = false; // inside a line too long to keep
  let lastFullSearch = Number.NEGATIVE_INFINITY;
  const responses = new Set<string>();

  const locate = (id: string): string | null => {
    const near = nearDayFolders(o.env, now()).flatMap((d) => matching(d, id));
    if (near.length > 0) return near.at(-1)!;
    if (now() - lastFullSearch < FULL_SEARCH_MS) return null;
    lastFullSearch = now();
    return codexTranscripts.find(id, o.env);
  };
  const take = (line: string): boolean => {
    const r = responseOf(line, o.startedAt);
    if (r === null || responses.has(r)) return false;
    responses.add(r);
    return true;
  };

  return {
    read(threadId) {
      if (threadId === undefined || !/^[A-Za-z0-9_-]{1,128}$/.test(threadId)) return false;
      path ??= locate(threadId);
      if (path === null) return false;
      const chunk = readFrom(path, offset);
      if (chunk === null) return false;
      offset += chunk.bytes;
      let grew = false;
      const lines = (partial + chunk.text).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        if (skipping) skipping = false;
        else if (take(line)) grew = true;
      }
      if (partial.length > MAX_KEPT_LINE) {
        partial = "";
        skipping = true;
      }
      return grew;
    },
    get responses() {
      return responses.size;
    },
    get found() {
      return path !== null;
    },
  };
}

/** The response id of a `token_usage_record` line stamped at or after `since`, else null. */
export function responseOf(line: string, since: number): string | null {
  if (!line.includes('"token_usage_record"')) return null;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof record !== "object" || record === null) return null;
  const { type, timestamp, payload } = record as Record<string, unknown>;
  if (type !== "token_usage_record" || typeof timestamp !== "string") return null;
  const at = Date.parse(timestamp);
  if (!Number.isFinite(at) || at < since) return null;
  const id = typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>).response_id : undefined;
  return typeof id === "string" && id.length > 0 && id.length <= 256 ? id : null;
}

/** Today's and yesterday's folders, by local and by UTC date (codex names them by its local date). */
function nearDayFolders(env: Readonly<Record<string, string | undefined>>, at: number): string[] {
  const home = cliHome(env, "CODEX_HOME", ".codex");
  if (!home) return [];
  const days = new Set<string>();
  for (const t of [at, at - 86_400_000]) {
    const d = new Date(t);
    days.add(join(String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())));
    days.add(join(String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())));
  }
  return [...days].sort().map((d) => join(home, "sessions", d));
}

function matching(dir: string, id: string): string[] {
  return list(dir)
    .filter((f) => f.startsWith("rollout-") && f.endsWith(`-${id}.jsonl`))
    .map((f) => join(dir, f))
    .filter(isFile);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** What was appended to `path` after `offset`, at most ROLLOUT_READ_BYTES; null when nothing or unreadable. */
function readFrom(path: string, offset: number): { text: string; bytes: number } | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return null;
    const buf = Buffer.alloc(Math.min(size - offset, ROLLOUT_READ_BYTES));
    const n = readSync(fd, buf, 0, buf.length, offset);
    // Cut at the last newline so a UTF-8 character is never split across polls.
    const end = buf.subarray(0, n).lastIndexOf(10) + 1;
    if (end === 0) return n === buf.length && n === ROLLOUT_READ_BYTES ? { text: buf.toString("utf8"), bytes: n } : null;
    return { text: buf.subarray(0, end).toString("utf8"), bytes: end };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
