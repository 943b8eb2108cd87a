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

/** The run's line: "3 sealed", "2 sealed, 1 unsealed (sandbox: off)", or null when no node recorded one. */
export function sealSummary(nodes: readonly SealFacts[]): string | null {
  const recorded = nodes.filter((n) => n.sealed !== undefined);
  if (recorded.length === 0) return null;
  const sealed = recorded.filter((n) => n.sealed).length;
  const unsealed = recorded.length - sealed;
  if (unsealed === 0) return `${sealed} sealed`;
  const reasons = [...new Set(recorded.filter((n) => !n.sealed).map((n) => n.unsealed_reason ?? "no reason recorded"))];
  const why = reasons.length > 3 ? `${reasons.slice(0, 3).join("; ")}; …` : reasons.join("; ");
  return `${sealed} sealed, ${unsealed} unsealed (${why})`;
}
