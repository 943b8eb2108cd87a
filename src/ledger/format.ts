// Small text formats shared by `vouch runs` and `vouch show`.
import { formatDuration } from "../engine/graph/duration.ts";

export function money(usd: number | null, unknown = 0): string {
  const extra = unknown > 0 ? ` (+${unknown} unknown)` : "";
  if (usd === null) return unknown > 0 ? `? (${unknown} unknown)` : "-";
  const text = usd === 0 ? "$0" : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
  return text + extra;
}

export function wall(ms: number | null): string {
  return ms === null ? "-" : formatDuration(ms);
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** Local time, "2026-11-29 22:00:01" (TZ applies); the ISO text when unparsable. */
export function when(iso: string | null): string {
  if (iso === null) return "-";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** One line: newlines and tabs become spaces, so a table cell cannot break the table. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\t]+\s*/g, " ").trim();
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

/** The last `max` lines of a tail, each indented. */
export function indentTail(text: string, indent: string, max = 20): string {
  const lines = text.replace(/\n+$/, "").split("\n");
  const shown = lines.length > max ? [`… (${lines.length - max} earlier lines)`, ...lines.slice(-max)] : lines;
  return shown.map((l) => `${indent}${l}`).join("\n");
}
