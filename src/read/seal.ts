// Whether a node's processes ran sealed (ADR 0040), as every reader says it:
// `vouch show`, the live view, the plain lines and the reports. The facts are a
// node's last node.finished (node.started while it runs): `sealed`, and when
// not, `unsealed_reason`. A node that runs no process records neither.

/** What a node's view holds of its seal. */
export interface SealFacts {
  sealed?: boolean;
  unsealed_reason?: string;
}

/** "sealed", "unsealed: WHY", or null when nothing was recorded (a router, an end, a run before sealing). */
export function sealText(n: SealFacts): string | null {
  if (n.sealed === undefined) return null;
  return n.sealed ? "sealed" : `unsealed: ${n.unsealed_reason ?? "no reason recorded"}`;
}

/** What a run's seal line is made of, bounded: the counts and the first distinct reasons (enough
 *  to name three and know there are more). A writer that lets finished branches go keeps one of
 *  these for them (ADR 0078). */
export interface SealTally {
  sealed: number;
  unsealed: number;
  reasons: readonly string[];
}

const REASONS_SHOWN = 3;

export const NO_SEALS: SealTally = { sealed: 0, unsealed: 0, reasons: [] };

/** `nodes` counted into `into` (a new tally; `into` is not changed). */
export function tallySeals(nodes: readonly SealFacts[], into: SealTally = NO_SEALS): SealTally {
  let { sealed, unsealed } = into;
  const reasons = [...into.reasons];
  for (const n of nodes) {
    if (n.sealed === undefined) continue;
    if (n.sealed) sealed++;
    else {
      unsealed++;
      const why = n.unsealed_reason ?? "no reason recorded";
      if (reasons.length <= REASONS_SHOWN && !reasons.includes(why)) reasons.push(why);
    }
  }
  return { sealed, unsealed, reasons };
}

/** Two tallies as one, `a`'s reasons first. */
export function mergeSeals(a: SealTally, b: SealTally): SealTally {
  const reasons = [...a.reasons];
  for (const why of b.reasons) if (reasons.length <= REASONS_SHOWN && !reasons.includes(why)) reasons.push(why);
  return { sealed: a.sealed + b.sealed, unsealed: a.unsealed + b.unsealed, reasons };
}

/** The run's line: "3 sealed", "2 sealed, 1 unsealed (sandbox: off)", or null when no node recorded one. */
export function sealSummary(nodes: readonly SealFacts[]): string | null {
  return sealTallyText(tallySeals(nodes));
}

export function sealTallyText(t: SealTally): string | null {
  if (t.sealed + t.unsealed === 0) return null;
  if (t.unsealed === 0) return `${t.sealed} sealed`;
  const why = t.reasons.length > REASONS_SHOWN ? `${t.reasons.slice(0, REASONS_SHOWN).join("; ")}; …` : t.reasons.join("; ");
  return `${t.sealed} sealed, ${t.unsealed} unsealed (${why})`;
}
