// RUN on the command line: a full id, a unique prefix of one, or `last`.
import type { Database } from "bun:sqlite";
import { UsageError } from "../engine/errors.ts";

const SHOWN_CANDIDATES = 8;

export function resolveRun(db: Database, ref: string, file: string): string {
  const wanted = ref.trim();
  if (wanted === "") throw new UsageError("RUN is empty: give a run id, a unique prefix of one, or last", "see: vouch runs");
  const exact = db.query("SELECT id FROM runs WHERE id = ?").get(wanted) as { id: string } | null;
  if (exact) return exact.id;
  if (wanted === "last") {
    const newest = db.query("SELECT id FROM runs ORDER BY rowid DESC LIMIT 1").get() as { id: string } | null;
    if (newest) return newest.id;
    throw new UsageError(`there is no last run: no runs are recorded in ${file}`, "start one with: vouch run GRAPH");
  }
  const matches = db
    .query("SELECT id FROM runs WHERE substr(id, 1, length(?1)) = ?1 ORDER BY rowid DESC LIMIT ?2")
    .all(wanted, SHOWN_CANDIDATES + 1) as { id: string }[];
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length === 0) {
    throw new UsageError(`no run matches "${wanted}" in ${file}`, "see the recorded runs with: vouch runs");
  }
  const total = (db.query("SELECT count(*) AS n FROM runs WHERE substr(id, 1, length(?1)) = ?1").get(wanted) as { n: number }).n;
  const shown = matches.slice(0, SHOWN_CANDIDATES).map((m) => m.id);
  const more = total > shown.length ? ` and ${total - shown.length} more` : "";
  throw new UsageError(
    `run prefix "${wanted}" is ambiguous: it matches ${total} runs: ${shown.join(", ")}${more}`,
    "give more characters of the run id",
  );
}
