// Agent sittings' transcripts for `vouch show` (docs/ledger.md, ADR 0009): the session id the
// harness reported (node.finished.session_id) located as a file under the
// Claude projects folder by findTranscript. Looked up when shown, never stored:
// transcripts live in the user's Claude folder and may move or be cleaned up.
import type { AttemptView, NodeView, RunSummary } from "../ledger/index.ts";
import { findTranscript } from "../spawn/harness/transcript.ts";

export interface TranscriptRef {
  /** "review attempt 1", "verify [each #0] attempt 2 (session 2)". */
  where: string;
  session_id: string;
  path: string;
}

/** Adds `transcript` (a path, or null when not found) to every attempt that has a
 *  session id, in place; returns the ones found, in show order. */
export function attachTranscripts(summary: RunSummary, env: Record<string, string | undefined>): TranscriptRef[] {
  const found: TranscriptRef[] = [];
  const sessions = summary.sessions.length > 1;
  const visit = (n: NodeView, label: string) => {
    for (const a of n.attempts as (AttemptView & { transcript?: string | null })[]) {
      if (a.session_id === null) continue;
      a.transcript = findTranscript(a.session_id, env);
      if (a.transcript !== null) {
        found.push({ where: `${label} attempt ${a.attempt}${sessions ? ` (session ${a.session})` : ""}`, session_id: a.session_id, path: a.transcript });
      }
    }
  };
  for (const n of summary.nodes) visit(n, n.node);
  for (const b of summary.branches) for (const n of b.nodes) visit(n, `${n.node} [${b.map} #${b.index}]`);
  return found;
}

export function renderTranscripts(refs: TranscriptRef[]): string {
  if (refs.length === 0) return "";
  return `\nTranscripts\n${refs.map((r) => `  ${r.where}: ${r.path}`).join("\n")}\n`;
}
