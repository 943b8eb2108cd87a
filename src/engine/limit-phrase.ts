// How vouch names a usage limit to a person (issue 16): "claude usage limit,
// resets 15:00 UTC". One home for the phrase: the TUI, the plain lines and
// `vouch show` all say it this way. Times are UTC (the ledger's and the
// events' zone), the date named when the reset is not today.

/** "15:00 UTC" today, "Dec 4 09:30 UTC" another day, relative to `now` (epoch ms). */
export function resetClock(resetsAt: string, now: number): string {
  const at = new Date(resetsAt);
  if (Number.isNaN(at.getTime())) return "at an unknown time";
  const hm = `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")} UTC`;
  const today = new Date(now);
  const sameDay =
    at.getUTCFullYear() === today.getUTCFullYear() && at.getUTCMonth() === today.getUTCMonth() && at.getUTCDate() === today.getUTCDate();
  if (sameDay) return hm;
  const month = at.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  return `${month} ${at.getUTCDate()} ${hm}`;
}

/** "claude usage limit, resets 15:00 UTC" (or "…, reset time unknown"). */
export function limitPhrase(harness: string, resetsAt: string | null | undefined, now: number): string {
  return `${harness} usage limit, ${resetsAt ? `resets ${resetClock(resetsAt, now)}` : "reset time unknown"}`;
}
