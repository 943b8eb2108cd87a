// Durations as text. Two forms: `duration` for a measured time as readers show it
// (250ms, 4.2s, 1m30s: rounded down to what a person reads), and `exactDuration`
// for a value as a graph file writes it (caps, timeouts: "10m", "1m30s", "250ms",
// exact, read back by parseDuration in src/engine/graph/duration.ts).

/** A graph-language duration: 600000 -> "10m", 90000 -> "1m30s", 250 -> "250ms". */
export function exactDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [unit, size] of [
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(`${n}${unit}`);
      rest -= n * size;
    }
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join("");
}

/** A measured time: 250ms, 4.2s, 1m30s, 2h5m (tenths of a second under a minute, whole
 *  seconds from a minute up); "-" when it is not known. */
export function duration(ms: number | null): string {
  if (ms === null) return "-";
  if (ms >= 1000 && ms < 60_000) return `${(Math.floor(ms / 100) / 10).toString()}s`;
  return exactDuration(ms >= 60_000 ? Math.floor(ms / 1000) * 1000 : ms);
}
