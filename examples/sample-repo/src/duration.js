// Parses "250ms", "30s" or "5m" into milliseconds.
export function parseDuration(text) {
  const match = /^(\d+)(ms|s|m)$/.exec(text);
  if (!match) throw new Error(`bad duration: ${text}`);
  const unit = { ms: 1, s: 1000, m: 60000 }[match[2]];
  return Number(match[1]) * unit;
}
