// A regular-expression replace over a long text without holding every match (ADR 0086).
// `text.replace(re, fn)` keeps each match of a global expression until it ends: packing a
// 100,000-item map's results (9.4 MB of JSON, ~700,000 fragments) grew the process by 40 MiB,
// and inside a run, where the collector counts much more as live, the garbage of the whole
// write stayed until it ended (+53 MiB at the map's end). Here a long text is replaced a piece
// at a time, each piece the text `text.replace` gives for it, so the result is the same text,
// and the young generation is collected every few pieces: the matches and pieces go as it works.
import { edenGC } from "bun:jsc";

/** A text this long is replaced a piece at a time. */
export const PIECE_CHARS = 64 * 1024;
/** A young collection after this many pieces (every 256 Ki characters): +20 MiB instead of
 *  +53 at a 100,000-item map's end; every piece or every second one gained nothing more. */
export const COLLECT_EVERY_PIECES = 4;

export interface PieceOptions {
  piece?: number;
  /** Called every COLLECT_EVERY_PIECES pieces (tests count it). */
  collect?: () => void;
}

/** `text.replace(re, by)` for a global `re` with no groups, whose matches are never empty and depend on at most
 *  `reach` characters from where they start: the same text. Each piece is replaced on a slice
 *  `reach` characters longer than itself, so a match that starts in it is found as in the whole
 *  text; one that starts after it is left to the next piece, which starts where the last match
 *  of this one ended (or at its end): where the whole text's scan would go on. */
export function replaceInPieces(text: string, re: RegExp, reach: number, by: (match: string) => string, o: PieceOptions = {}): string {
  const piece = o.piece ?? PIECE_CHARS;
  if (text.length < piece) return text.replace(re, by);
  const collect = o.collect ?? edenGC;
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const cut = Math.min(text.length, at + piece) - at;
    let end = cut;
    let grown = 0;
    const replaced = text.slice(at, at + cut + reach).replace(re, (m: string, offset: number) => {
      if (offset >= cut) return m;
      const token = by(m);
      grown += token.length - m.length;
      end = Math.max(end, offset + m.length);
      return token;
    });
    pieces.push(replaced.slice(0, end + grown));
    at += end;
    if (pieces.length % COLLECT_EVERY_PIECES === 0) collect();
  }
  return pieces.join("");
}
