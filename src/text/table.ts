// A text table: columns padded to their widest cell by display width, so a CJK
// or emoji cell does not push the columns after it (`vouch runs`, `vouch show`).
import { displayWidth, padTo } from "./width.ts";

/** Columns padded to their widest cell; the last column is not padded. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ""))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : padTo(c, widths[i]!)))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}
