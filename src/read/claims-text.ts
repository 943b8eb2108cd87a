// The claims and retries tables as text (`vouch stats`, `vouch show`): one layout, so a
// cell reads the same wherever it is printed. Cells come from claims.ts.
import { usd } from "../text/money.ts";
import { table } from "../text/table.ts";
import { claimText, type ClaimCell, type RetryCell, type Spent } from "./claims.ts";

function cost(s: Spent): string {
  if (s.cost_unknown === 0) return usd(s.cost_usd);
  return s.cost_unknown === s.sittings ? "?" : `${usd(s.cost_usd)} (+${s.cost_unknown} unknown)`;
}

function share(n: number, of: number): string {
  return of === 0 ? "-" : `${Math.round((100 * n) / of)}%`;
}

/** CLAIM, EVIDENCE, SITTINGS, SHARE (of the sittings with that claim, in its group), COST, TURNS. */
export function claimTableText(cells: readonly ClaimCell[], grouped: boolean): string {
  const perClaim = new Map<string, number>();
  const claimKey = (c: ClaimCell) => JSON.stringify([c.group, c.claim]);
  for (const c of cells) perClaim.set(claimKey(c), (perClaim.get(claimKey(c)) ?? 0) + c.sittings);
  const header = [...(grouped ? ["GROUP"] : []), "CLAIM", "EVIDENCE", "SITTINGS", "SHARE", "COST", "TURNS"];
  const rows = cells.map((c) => [
    ...(grouped ? [c.group] : []),
    claimText(c.claim),
    c.evidence,
    String(c.sittings),
    share(c.sittings, perClaim.get(claimKey(c)) ?? 0),
    cost(c),
    String(c.turns),
  ]);
  return table(header, rows);
}

/** CAUSE, RETRIES, VERIFIED (retries that ended in a verified pass), COST, TURNS. */
export function retryTableText(cells: readonly RetryCell[], grouped: boolean): string {
  const header = [...(grouped ? ["GROUP"] : []), "CAUSE", "RETRIES", "VERIFIED", "COST", "TURNS"];
  const rows = cells.map((c) => [
    ...(grouped ? [c.group] : []),
    c.cause,
    String(c.sittings),
    `${c.verified} (${share(c.verified, c.sittings)})`,
    cost(c),
    String(c.turns),
  ]);
  return table(header, rows);
}
