// US dollars as every reader shows them (the TUI, the plain lines, `vouch show`,
// `vouch runs`, the reports): one rule, so the same cost reads the same everywhere.

/** With the precision the amount needs: $5.00, $0.42, $0.012, $0.0047, $0.001, $0. */
export function usd(amount: number): string {
  if (amount === 0) return "$0";
  if (amount >= 1) return `$${amount.toFixed(2)}`;
  if (amount >= 0.01) return `$${trimZeros(amount.toFixed(3), 2)}`;
  return `$${trimZeros(amount.toPrecision(2), 1)}`;
}

function trimZeros(fixed: string, minDecimals: number): string {
  const [whole, frac = ""] = fixed.split(".");
  let f = frac.replace(/0+$/, "");
  if (f.length < minDecimals) f = frac.slice(0, minDecimals);
  return f ? `${whole}.${f}` : whole!;
}

/** A cost that may be unknown: "-" when nothing is known, "(+2 unknown)" for sittings
 *  whose harness did not say what they cost. */
export function money(amount: number | null, unknown = 0): string {
  if (amount === null) return unknown > 0 ? `? (${unknown} unknown)` : "-";
  return unknown > 0 ? `${usd(amount)} (+${unknown} unknown)` : usd(amount);
}

/** A limit as a person writes it in a graph (a cap, not a measured cost): whole dollars
 *  without cents ($5), cents when there are some ($2.50), and a smaller amount exactly
 *  ($0.001). Measured costs keep `usd`, with the precision the amount needs. */
export function usdAsWritten(amount: number): string {
  if (Number.isInteger(amount)) return `$${amount}`;
  const cents = Math.round(amount * 100);
  if (Math.abs(amount * 100 - cents) < 1e-9) return `$${(cents / 100).toFixed(2)}`;
  const exact = String(amount);
  return `$${exact.includes("e") ? amount.toFixed(20).replace(/0+$/, "") : exact}`;
}
