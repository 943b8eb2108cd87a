// `vouch stats [--since WHEN] [--by harness|model|graph|node] [--json]` (ADR 0068): over the
// recorded runs, what models claimed of their own work beside what the evidence found (the
// confusion table, with cost and turns per cell), and what each cause's retries bought.
import { UsageError } from "../engine/errors.ts";
import { checkedLedgerHome, ledgerExists, openLedgerForReading } from "../ledger/index.ts";
import { STATS_BY, type StatsBy } from "../ledger/evidence-reads.ts";
import { claimTable, retryTable, type SittingRow } from "../read/claims.ts";
import { claimTableText, retryTableText } from "../read/claims-text.ts";
import { sanitize } from "../text/sanitize.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./io.ts";

const USAGE = "usage: vouch stats [--since WHEN] [--by harness|model|graph|node] [--json]";
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** WHEN: a date or time (2026-11-01, 2026-11-01T12:00:00Z) or an age (30m, 12h, 7d). An ISO instant. */
export function parseSince(text: string, now: number): string {
  const age = /^(\d+)(m|h|d)$/.exec(text.trim());
  if (age) return new Date(now - Number(age[1]) * UNIT_MS[age[2]!]!).toISOString();
  // Date.parse is lenient ("1", "May 1"): only ISO 8601 dates and times are taken.
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim());
  const at = iso ? Date.parse(text.trim()) : Number.NaN;
  if (Number.isNaN(at))
    throw new UsageError(`--since takes a date (2026-11-01), a time (2026-11-01T12:00:00Z) or an age (30m, 12h, 7d), not "${text}"`, USAGE);
  return new Date(at).toISOString();
}

function parseBy(text: string | undefined): StatsBy | undefined {
  if (text === undefined) return undefined;
  if ((STATS_BY as readonly string[]).includes(text)) return text as StatsBy;
  throw new UsageError(`--by takes ${STATS_BY.join(", ")}, not "${text}"`, USAGE);
}

export interface Stats {
  since: string | null;
  by: StatsBy | null;
  runs: number;
  /** Judged agent sittings (the claims table's total). */
  sittings: number;
  claims: ReturnType<typeof claimTable>;
  retries: ReturnType<typeof retryTable>;
}

export function statsOf(rows: readonly SittingRow[], runs: number, since: string | null, by: StatsBy | null): Stats {
  const claims = claimTable(rows);
  return { since, by, runs, sittings: claims.reduce((n, c) => n + c.sittings, 0), claims, retries: retryTable(rows) };
}

export function renderStats(s: Stats, home: string): string {
  const when = s.since === null ? "" : ` since ${s.since}`;
  if (s.sittings === 0 && s.retries.length === 0) return `no judged sittings recorded in ${home}${when}\n`;
  const grouped = s.by !== null;
  const out = [
    `Claims vs evidence: ${s.sittings} judged agent sitting${s.sittings === 1 ? "" : "s"} in ${s.runs} run${s.runs === 1 ? "" : "s"}${when}${grouped ? `, by ${s.by}` : ""}`,
    "",
  ];
  if (s.sittings > 0) out.push(claimTableText(s.claims, grouped));
  const retries = s.retries.reduce((n, c) => n + c.sittings, 0);
  out.push(retries === 0 ? "No retries." : `What retries bought: ${retries} retr${retries === 1 ? "y" : "ies"}`);
  if (retries > 0) out.push("", retryTableText(s.retries, grouped));
  return `${out.join("\n").replace(/\n*$/, "")}\n`;
}

const statsCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("stats", args, {
    json: { type: "boolean" },
    since: { type: "string" },
    by: { type: "string" },
  });
  if (positionals.length > 0) throw new UsageError(`stats takes no arguments (got "${positionals[0]}")`, USAGE);
  const since = values.since === undefined ? null : parseSince(values.since, Date.now());
  const by = parseBy(values.by) ?? null;
  const home = checkedLedgerHome(io.env, io.cwd);
  let stats = statsOf([], 0, since, by);
  if (ledgerExists(home)) {
    const ledger = openLedgerForReading({ home });
    try {
      const found = ledger.sittings({ ...(since !== null ? { since } : {}), ...(by !== null ? { by } : {}) });
      stats = statsOf(found.rows, found.runs, since, by);
    } finally {
      ledger.close();
    }
  }
  // Claims, groups (graph and node names, models) are text a model or a graph wrote: no escape reaches the terminal.
  io.out(values.json ? `${JSON.stringify(stats, null, 2)}\n` : sanitize(renderStats(stats, home)));
  return 0;
};
export default statsCommand;
