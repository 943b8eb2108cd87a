// Writing commented YAML by hand, safely: every value that came from the project
// (a command, a description, a path) goes through scalar(), which gives YAML's
// own plain form when that reads back as the same string and a double-quoted
// JSON string otherwise; comments are one clean line each. The texts written
// are loaded again by vouch's own loader before anything is written (write-plan.ts).
import { parse, stringify } from "yaml";
import { sanitizeInline } from "../../text/sanitize.ts";
import { oneLine } from "./text.ts";

/** A YAML scalar that reads back as exactly `value`, on one line. */
export function scalar(value: string): string {
  const plain = stringify(value, { lineWidth: 0 }).replace(/\n$/, "");
  if (!plain.includes("\n") && !plain.startsWith("|") && !plain.startsWith(">") && !plain.includes(" #")) {
    try {
      if (parse(plain) === value) return plain;
    } catch {
      // fall through to the quoted form
    }
  }
  return JSON.stringify(value);
}

/** Lines with their comments aligned: [text, comment] at an indent; "" comments leave the line bare. */
export function rows(indent: number, list: readonly (readonly [string, string])[]): string[] {
  const pad = " ".repeat(indent);
  const width = Math.min(48, Math.max(0, ...list.filter(([t, c]) => c !== "" && t.length <= 48).map(([t]) => t.length)));
  return list.map(([text, comment]) =>
    comment === "" ? `${pad}${text}` : `${pad}${text.padEnd(width)}  # ${oneLine(comment, 160)}`.trimEnd(),
  );
}

/** A block of whole-line comments at an indent, each line cleaned. */
export function comments(indent: number, lines: readonly string[]): string[] {
  const pad = " ".repeat(indent);
  // Leading spaces are kept (an indented example); no newline or control character gets in.
  return lines.map((l) => (l === "" ? `${pad}#` : `${pad}# ${sanitizeInline(l).slice(0, 200)}`.trimEnd()));
}
