// Run ids sort by time and are short enough to type a prefix of:
// 20261129-221503-7f3a9c (UTC date, time, 6 random hex digits). The random
// part only makes a clash rare; the ledger makes it impossible (claimRunId
// takes the id's lock and checks the id is unused, else draws again).
export const RUN_ID_RANDOM_BYTES = 3;

export function newRunId(now: Date = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const date = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}`;
  const time = `${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  const rand = crypto.getRandomValues(new Uint8Array(RUN_ID_RANDOM_BYTES));
  return `${date}-${time}-${[...rand].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
