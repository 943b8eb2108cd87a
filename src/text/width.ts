// How many terminal columns text takes, and cutting, padding and wrapping by it.
// Measured per grapheme by string-width (East Asian Width, emoji presentation,
// ZWJ sequences, combining marks), so 🚀, ✅ and CJK count two columns and a
// flag or a family emoji one cluster; text of only narrow code points (ASCII, Latin,
// arrows, box drawing, the spinner's braille) takes the short way.
import stringWidth from "string-width";

const ASCII = /^[\x20-\x7e]*$/;
// Code points one column wide whatever follows (no emoji presentation, no mark, not
// ignorable): Latin and its punctuation but the soft hyphen, general punctuation,
// arrows, box drawing, braille (the spinner). Text of only these is counted, not segmented.
const NARROW = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u257f\u2800-\u28ff]*$/;
const segmenter = new Intl.Segmenter();

// Screen lines repeat the same short pieces (icons, the spinner, " · "): their widths are
// kept, a bounded few, so a frame does not segment them again.
const SHORT = 16;
const KEPT = 1024;
const widths = new Map<string, number>();

/** Columns a (sanitized) string takes in a terminal. */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  if (NARROW.test(text)) return [...text].length;
  if (text.length > SHORT) return stringWidth(text);
  let w = widths.get(text);
  if (w === undefined) {
    if (widths.size >= KEPT) widths.clear();
    w = stringWidth(text);
    widths.set(text, w);
  }
  return w;
}

/** The grapheme clusters of a text with their widths, in order. */
function* clusters(text: string): Generator<[string, number]> {
  if (NARROW.test(text)) {
    for (const ch of text) yield [ch, 1];
    return;
  }
  for (const { segment } of segmenter.segment(text)) yield [segment, stringWidth(segment)];
}

/** The longest start of `text` at most `width` columns wide. */
function head(text: string, width: number): string {
  let out = "";
  let w = 0;
  for (const [cluster, cw] of clusters(text)) {
    if (w + cw > width) break;
    out += cluster;
    w += cw;
  }
  return out;
}

/** Cut to at most `width` columns, ending with … when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (displayWidth(text) <= width) return text;
  return `${head(text, width - 1)}…`;
}

/** Pad with spaces to exactly `width` columns (truncating if longer). */
export function padEnd(text: string, width: number): string {
  const cut = truncate(text, width);
  return cut + " ".repeat(Math.max(0, width - displayWidth(cut)));
}

/** Pad with spaces to at least `width` columns; never cuts. */
export function padTo(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Wrap one line into pieces of at most `width` columns, at spaces where possible. */
export function wrap(text: string, width: number): string[] {
  if (width <= 0) return [];
  const out: string[] = [];
  let rest = text;
  while (displayWidth(rest) > width) {
    // A cluster wider than the whole width still moves on: it is cut alone.
    const cut = head(rest, width) || [...clusters(rest)][0]![0];
    // Break after the last space when it leaves a reasonable first piece; else cut hard.
    const space = cut.lastIndexOf(" ");
    const at = space > width / 3 ? space + 1 : cut.length;
    out.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at);
  }
  out.push(rest);
  return out;
}
