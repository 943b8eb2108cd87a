// A recorded moment as a reader shows it.

const pad2 = (n: number) => String(n).padStart(2, "0");

/** Local time, "2026-11-29 22:00:01" (TZ applies); "-" for none; the ISO text when unparsable. */
export function localTime(iso: string | null): string {
  if (iso === null) return "-";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const date = `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
  return `${date} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}
