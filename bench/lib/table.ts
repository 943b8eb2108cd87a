// The results table: one row per figure, median and spread (min–max over the
// repetitions), and the target or what to compare with. Printed as Markdown,
// which reads as well in a terminal as in bench/results.md.
import type { Summary } from "./measure.ts";

export interface Row {
  measure: string;
  median: string;
  spread: string;
  target: string;
}

export type Unit = "ms" | "s" | "MiB" | "KiB" | "x" | "/s";

export function fmt(value: number, unit: Unit): string {
  switch (unit) {
    case "ms":
      return value >= 100 ? `${value.toFixed(0)} ms` : value >= 1 ? `${value.toFixed(1)} ms` : `${value.toFixed(3)} ms`;
    case "s":
      return `${(value / 1000).toFixed(2)} s`;
    case "MiB":
      return `${value.toFixed(1)} MiB`;
    case "KiB":
      return `${value.toFixed(2)} KiB`;
    case "x":
      return `${value.toFixed(2)}×`;
    case "/s":
      return `${value.toFixed(0)}/s`;
  }
}

/** 256 MiB, 1 GiB: a size of output the benchmarks print. */
export const byteSize = (bytes: number) => (bytes >= 2 ** 30 ? `${bytes / 2 ** 30} GiB` : `${bytes / 2 ** 20} MiB`);

export function row(measure: string, s: Summary, unit: Unit, target = ""): Row {
  return { measure, median: fmt(s.median, unit), spread: `${fmt(s.min, unit)} – ${fmt(s.max, unit)} (n=${s.n})`, target };
}

/** "met" / "missed" against an upper bound on the median. */
export function verdict(s: Summary, bound: number, label: string): string {
  return `${label}: ${s.median <= bound ? "met" : "missed"}`;
}

export function markdown(rows: Row[]): string {
  const header: Row = { measure: "measure", median: "median", spread: "spread (min – max)", target: "target / note" };
  const all = [header, ...rows];
  const w = {
    measure: Math.max(...all.map((r) => r.measure.length)),
    median: Math.max(...all.map((r) => r.median.length)),
    spread: Math.max(...all.map((r) => r.spread.length)),
    target: Math.max(...all.map((r) => r.target.length)),
  };
  const line = (r: Row) =>
    `| ${r.measure.padEnd(w.measure)} | ${r.median.padStart(w.median)} | ${r.spread.padEnd(w.spread)} | ${r.target.padEnd(w.target)} |`;
  const rule = `|${"-".repeat(w.measure + 2)}|${"-".repeat(w.median + 1)}:|${"-".repeat(w.spread + 2)}|${"-".repeat(w.target + 2)}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}
