// Run ids sort by time and are short enough to type a prefix of:
// 20261129-221503-7f3a (UTC date, time, 4 random hex digits).
export function newRunId(now: Date = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const date = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}`;
  const time = `${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  const rand = crypto.getRandomValues(new Uint8Array(2));
  return `${date}-${time}-${[...rand].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
