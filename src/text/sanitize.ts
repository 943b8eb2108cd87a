// Text from outside (model and command output, CLI errors, labels) made safe to show:
// escape sequences and control characters removed. One home for every layer: the
// terminal UI (src/tui/text.ts re-exports it), the harnesses' error text
// (src/spawn/harness), the reports (src/report) and the commands (src/cli).

// ESC sequences (CSI, OSC, two-character escapes), then every other C0/C1 control,
// and the Unicode controls that reorder or break what a terminal shows (bidi
// embeddings, overrides and isolates, line and paragraph separators).
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** Text from outside (labels, tails, errors) with escapes and control characters removed; tabs become spaces. */
export function sanitize(text: string): string {
  return text.replace(ESCAPES, "").replace(/\t/g, "  ").replace(/\r\n?/g, "\n").replace(CONTROLS, "");
}

/** sanitize() for one piece of a line: newlines become spaces too. Cheap for the usual clean text. */
export function sanitizeInline(text: string): string {
  return UNSAFE.test(text) ? sanitize(text).replace(/\n/g, " ") : text;
}
