// Text from outside made into lines a reader can show: one line, its non-empty
// lines, the indented end of a long output tail.
import { sanitize } from "./sanitize.ts";

/** One line: sanitized, whitespace runs (newlines and tabs included) collapsed, so a table
 *  cell or a screen row cannot be broken by what a model or a check wrote. */
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

/** The last `max` lines of a tail, each indented (the earlier ones counted). */
export function indentTail(text: string, indent: string, max = 20): string {
  const lines = text.replace(/\n+$/, "").split("\n");
  const shown = lines.length > max ? [`… (${lines.length - max} earlier lines)`, ...lines.slice(-max)] : lines;
  return shown.map((l) => `${indent}${l}`).join("\n");
}
