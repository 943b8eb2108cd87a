// Terminal escape sequences and stray control characters in text taken from
// an agent CLI (gemini colours its fatal messages even in a pipe): no raw ESC
// may reach an event, the ledger or a terminal that shows the error (ADR 0018).

/** The text with CSI and OSC sequences, other ESC sequences and controls but tab and newline removed. */
export function stripEscapes(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g, "").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}
