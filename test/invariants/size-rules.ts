// Small named pieces (issue 25): in the folders listed, no file over FILE_LINES lines
// and no function over FUNCTION_LINES, as the TypeScript parser counts them
// (ts-facts.ts). A pure function of the facts, so a planted tree can break it.
import type { Facts } from "./layer-rules.ts";

export const FILE_LINES = 300;
export const FUNCTION_LINES = 60;

/** Folders held to the limits (src/engine/run/ and src/spawn/ since their split, ADR 0036; the harness folders since ADR 0034)… */
export const SIZE_LIMITED: readonly string[] = ["src/executor/", "src/engine/run/", "src/spawn/"];
/** …and what inside them is not held yet: nothing. */
export const SIZE_NOT_HELD: readonly string[] = [];

/** "file: N lines" and "file:LINE name: N lines" for each piece over its limit. */
export function oversized(facts: Facts, folders: readonly string[] = SIZE_LIMITED): string[] {
  const out: string[] = [];
  for (const [file, x] of [...facts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!folders.some((d) => file.startsWith(d)) || SIZE_NOT_HELD.some((d) => file.startsWith(d))) continue;
    if (x.lines > FILE_LINES) out.push(`${file}: ${x.lines} lines`);
    for (const f of x.functions) if (f.lines > FUNCTION_LINES) out.push(`${file}:${f.line} ${f.name}: ${f.lines} lines`);
  }
  return out;
}
