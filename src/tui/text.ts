// Terminal-safe text: what reaches the screen is sanitized (model and command
// output may carry escape sequences) and never wider than the width given.

// sanitize and sanitizeInline live in src/text/sanitize.ts, below every layer, so the
// harnesses (src/spawn) clean a CLI's error text with the same function the screen uses.
import { sanitize, sanitizeInline } from "../text/sanitize.ts";
export { sanitize, sanitizeInline };

/** One line: sanitized, whitespace runs (newlines included) collapsed. */
export function oneLine(text: string): string {
  return sanitize(text).replace(/\s+/g, " ").trim();
}

/** Non-empty lines of a text, sanitized. */
export function linesOf(text: string): string[] {
  return sanitize(text)
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.length > 0);
}

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f]$/u;
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]$/u;

/** Columns one code point takes in a terminal (0, 1 or 2). */
export function charWidth(ch: string): number {
  if (ZERO_WIDTH.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

/** Columns a (sanitized) string takes. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** Cut to at most `width` columns, ending with … when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Pad with spaces to exactly `width` columns (truncating if longer). */
export function padEnd(text: string, width: number): string {
  const cut = truncate(text, width);
  return cut + " ".repeat(Math.max(0, width - displayWidth(cut)));
}

/** Wrap one line into pieces of at most `width` columns, at spaces where possible. */
export function wrap(text: string, width: number): string[] {
  if (width <= 0) return [];
  const out: string[] = [];
  let rest = text;
  while (displayWidth(rest) > width) {
    let cut = "";
    let w = 0;
    for (const ch of rest) {
      const cw = charWidth(ch);
      if (w + cw > width) break;
      cut += ch;
      w += cw;
    }
    // Break after the last space when it leaves a reasonable first piece; else cut hard.
    const space = cut.lastIndexOf(" ");
    const at = space > width / 3 ? space + 1 : cut.length;
    out.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at);
  }
  out.push(rest);
  return out;
}
