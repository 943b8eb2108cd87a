// Escaping for the report formats. Everything a report shows that came from
// outside (check output, model answers, names, inputs) passes through one of
// these: a check printing `<script>` must read as text in every format.
import { oneLine } from "../text/lines.ts";
import { sanitize } from "../text/sanitize.ts";

const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for HTML element content or a quoted attribute value. */
export function html(text: unknown): string {
  return sanitize(String(text ?? "")).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

// XML 1.0 allows tab, newline, carriage return and U+0020..U+D7FF, U+E000..U+FFFD,
// U+10000..U+10FFFF. Anything else (other controls, lone surrogates, U+FFFE) makes
// the whole file unreadable to a JUnit parser, so it is dropped.
const NOT_XML = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** Text for XML content or a double-quoted attribute: escape sequences and illegal characters dropped. */
export function xml(text: unknown): string {
  return sanitize(String(text ?? ""))
    .replace(NOT_XML, "")
    .replace(/[&<>"]/g, (c) => HTML_ENTITIES[c]!)
    .replace(/\n/g, "&#10;");
}

/** Text for XML element content, where newlines stay newlines. */
export function xmlBody(text: unknown): string {
  return xml(text).replace(/&#10;/g, "\n");
}

// GitHub turns `@name` in a PR comment into a notification, whatever escaping
// surrounds it (it reads the rendered text): a zero-width space after the `@`
// keeps the text as it reads and pings no one.
const noMention = (text: string) => text.replace(/@(?=[A-Za-z0-9])/g, "@\u200b");

/** One table cell or inline text of GitHub-flavoured Markdown: no pipe, HTML,
 *  emphasis, link, code span or @mention of the text's own can take effect. */
export function mdInline(text: unknown): string {
  return noMention(
    sanitize(String(text ?? ""))
      .replace(/\s+/g, " ")
      .trim()
      .replace(/[\\`*_[\]|~#!()]/g, (c) => `\\${c}`)
      .replace(/[&<>]/g, (c) => HTML_ENTITIES[c]!),
  );
}

/** Text inside an HTML element of the Markdown summary (`<summary>`): one line,
 *  since a blank line would end the HTML block and let the rest render as Markdown. */
export function mdHtmlInline(text: unknown): string {
  return noMention(html(oneLine(String(text ?? ""))));
}

/** The content of a Markdown code span: one line (a blank line ends the span), no
 *  backtick, no @mention (GitHub skips code spans, but not every renderer does). */
export function mdCode(text: unknown): string {
  return noMention(oneLine(String(text ?? "")).replace(/`/g, ""));
}

/** A fenced code block holding `text` literally: the fence is longer than any
 *  backtick run in the text, so the text cannot close it. */
export function mdFence(text: string): string {
  const body = sanitize(text).replace(NOT_XML, "");
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}text\n${body.replace(/\n+$/, "")}\n${fence}`;
}
