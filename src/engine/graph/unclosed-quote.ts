// Where an unclosed quote opens. The yaml library reports a missing closing
// quote where the quoted text ends (at the end of the file, for a quote in a
// flow list), far from the quote to fix; its lexer still tells where each
// quoted scalar starts, so the problem is moved there.
import { CST, Lexer, type YAMLError } from "yaml";

// Lexer markers that stand for no source text.
const MARKERS = new Set(["\u0002", "\u0018", "\u001f"]);

function isClosed(token: string): boolean {
  const quote = token[0]!;
  if (token.length < 2 || !token.endsWith(quote)) return false;
  if (quote === "'") return true; // '' inside is an escaped quote; the lexer ends the token at the real one
  let backslashes = 0;
  for (let i = token.length - 2; i >= 0 && token[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 0;
}

/** The offset and quote character of the last unclosed quoted scalar starting at or before `at`. */
export function unclosedQuoteBefore(text: string, at: number): { offset: number; quote: string } | null {
  let offset = 0;
  let found: { offset: number; quote: string } | null = null;
  for (const token of new Lexer().lex(text)) {
    if (offset > at) break;
    const type = CST.tokenType(token);
    if ((type === "double-quoted-scalar" || type === "single-quoted-scalar") && !isClosed(token)) found = { offset, quote: token[0]! };
    if (!MARKERS.has(token)) offset += token.length;
  }
  return found;
}

export function isMissingQuote(error: YAMLError): boolean {
  return error.code === "MISSING_CHAR" && /quote/.test(error.message);
}

/** Syntax errors with those an unclosed quote caused (reported after it) left out: one problem per cause. */
export function withoutQuoteFallout(errors: readonly YAMLError[], text: string): YAMLError[] {
  const missing = errors.find(isMissingQuote);
  const quote = missing ? unclosedQuoteBefore(text, missing.pos[0]) : null;
  if (!missing || !quote) return [...errors];
  return errors.filter((e) => e === missing || e.pos[0] < quote.offset);
}
