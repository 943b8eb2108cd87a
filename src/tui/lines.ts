// A screen line as styled segments. Views build lines; the Ink components and
// the plain writer only paint them, so width and colour rules live in one place.
import { displayWidth, truncate } from "../text/width.ts";
import { sanitizeInline } from "../text/sanitize.ts";

/** What a segment means; each output maps tones to colours (or to nothing under NO_COLOR). */
export type Tone = "ok" | "bad" | "warn" | "info" | "muted" | "accent";

export interface Segment {
  text: string;
  tone?: Tone;
  bold?: boolean;
}

export interface Line {
  segments: Segment[];
  /** The row's target (a node, a branch, a map fold) when it can be selected. */
  key?: string;
  selected?: boolean;
}

/** Every piece of text on a screen line, in the live UI and the plain lines, passes
 *  here: whatever it came from (a graph name, a node id, a model's words), no
 *  control character or escape sequence of its own reaches the terminal. */
export function seg(text: string, tone?: Tone, bold?: boolean): Segment {
  const s: Segment = { text: sanitizeInline(text) };
  if (tone) s.tone = tone;
  if (bold) s.bold = true;
  return s;
}

export function line(segments: Segment[], key?: string): Line {
  return key === undefined ? { segments } : { segments, key };
}

export function lineText(l: Line): string {
  return l.segments.map((s) => s.text).join("");
}

/** The segments cut so the whole line takes at most `width` columns (… marks the cut). */
export function fitSegments(segments: Segment[], width: number): Segment[] {
  const total = segments.reduce((w, s) => w + displayWidth(s.text), 0);
  if (total <= width) return segments;
  const out: Segment[] = [];
  let left = width;
  for (const s of segments) {
    const w = displayWidth(s.text);
    if (w < left) {
      out.push(s);
      left -= w;
      continue;
    }
    // This segment reaches the edge: cut it, keeping one column for the ellipsis.
    out.push({ ...s, text: truncate(s.text + " ", left) });
    break;
  }
  return out;
}

export function fitLine(l: Line, width: number): Line {
  return { ...l, segments: fitSegments(l.segments, width) };
}

const SGR: Record<Tone, string> = {
  ok: "32",
  bad: "31",
  warn: "33",
  info: "36",
  muted: "90",
  accent: "35",
};

/** A line as terminal text: SGR colours only when `color` (NO_COLOR and pipes get none). */
export function paint(l: Line, color: boolean): string {
  if (!color) return lineText(l);
  return l.segments
    .map((s) => {
      const codes = [s.tone ? SGR[s.tone] : "", s.bold ? "1" : ""].filter(Boolean);
      return codes.length ? `\u001b[${codes.join(";")}m${s.text}\u001b[0m` : s.text;
    })
    .join("");
}
