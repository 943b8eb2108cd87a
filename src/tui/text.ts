// Terminal-safe text for the commands that print (src/cli): sanitize lives in
// src/text/sanitize.ts, below every layer; widths, lines and tables in src/text/ too.
export { sanitize, sanitizeInline } from "../text/sanitize.ts";
