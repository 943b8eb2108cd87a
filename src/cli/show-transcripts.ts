// Agent sittings' sessions and transcripts for `vouch show` (docs/ledger.md, ADR 0009,
// ADR 0023): the session id the harness reported for each attempt
// (node.retrying / node.finished .session_id), located as a transcript file in the
// CLI's own folder by findTranscript. Looked up when shown, never stored:
// transcripts live in the user's CLI folders and may move or be cleaned up.
import { EXIT, UsageError, VouchError } from "../engine/errors.ts";
import type { AttemptView, NodeView, RunSummary } from "../ledger/index.ts";
import { nodePath } from "../read/node-path.ts";
import { findTranscript, TRANSCRIPT_STORES } from "../spawn/harness/transcript.ts";
import { nodesNamed } from "./node-arg.ts";

export interface TranscriptRef {
  /** "review attempt 1", "each[0].verify attempt 2 (session 2)". */
  where: string;
  session_id: string;
  /** The transcript file, or null when it was not found. */
  path: string | null;
}

type Shown = AttemptView & { transcript?: string | null };

/** Every attempt of every node, top-level and in branches, labelled as `vouch show` labels them. */
function visitAttempts(summary: RunSummary, visit: (n: NodeView, label: string, a: Shown) => void): void {
  const sessions = summary.sessions.length > 1;
  const each = (n: NodeView, label: string) => {
    for (const a of n.attempts as Shown[]) visit(n, `${label} attempt ${a.attempt}${sessions ? ` (session ${a.session})` : ""}`, a);
  };
  for (const n of summary.nodes) each(n, n.node);
  for (const b of summary.branches) for (const n of b.nodes) each(n, nodePath(n.node, b));
}

/** Adds `transcript` (a path, or null when not found) to every attempt that has a
 *  session id, in place; returns every attempt with a session id, in show order. */
export function attachTranscripts(summary: RunSummary, env: Record<string, string | undefined>): TranscriptRef[] {
  const out: TranscriptRef[] = [];
  visitAttempts(summary, (_n, where, a) => {
    if (a.session_id === null) return;
    a.transcript = findTranscript(a.session_id, env);
    out.push({ where, session_id: a.session_id, path: a.transcript });
  });
  return out;
}

/** The Sessions block (every attempt's session id) and the Transcripts block (the files found). */
export function renderTranscripts(refs: TranscriptRef[]): string {
  if (refs.length === 0) return "";
  const sessions = `\nSessions\n${refs.map((r) => `  ${r.where}: ${r.session_id}`).join("\n")}\n`;
  const found = refs.filter((r) => r.path !== null);
  return found.length === 0 ? sessions : `${sessions}\nTranscripts\n${found.map((r) => `  ${r.where}: ${r.path}`).join("\n")}\n`;
}

/** Nothing to print for --transcript NODE: the node ran, but no transcript is known. */
export class NoTranscriptError extends VouchError {
  override readonly name = "NoTranscriptError";
  readonly exitCode = EXIT.error;
}

/** `vouch show RUN --transcript NODE`: the transcript path of NODE's last attempt with a
 *  session id. NODE is a label as every reader prints it (`each[3].verify`), or in an older
 *  spelling (`each#3/verify`, `verify [each #3]`); a bare branch node id names it in every
 *  branch (one path per map branch). */
export function transcriptPaths(summary: RunSummary, node: string, env: Record<string, string | undefined>): string[] {
  const views = nodesNamed(summary, node).map((x) => x.view);
  if (views.length === 0) {
    throw new UsageError(`no node "${node}" in run ${summary.run.id}`, "the nodes are listed by vouch show RUN");
  }
  const paths: string[] = [];
  const ids: string[] = [];
  for (const v of views) {
    const last = [...v.attempts].reverse().find((a) => a.session_id !== null);
    if (!last) continue;
    ids.push(last.session_id!);
    const path = findTranscript(last.session_id!, env);
    if (path !== null) paths.push(path);
  }
  if (ids.length === 0)
    throw new NoTranscriptError(
      `node "${node}" has no session: its harness reported no session id`,
      `only agent sittings on ${orList(TRANSCRIPT_STORES.map((s) => s.harness))} (and replay recordings) have sessions`,
    );
  if (paths.length === 0) {
    throw new NoTranscriptError(
      `no transcript found for session ${ids.join(", ")} of node "${node}"`,
      `looked in ${TRANSCRIPT_STORES.map((s) => s.where).join(", ")}: run vouch show with the HOME the sitting ran with`,
    );
  }
  return paths;
}

/** "a, b or c". */
function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}
