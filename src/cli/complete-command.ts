// `vouch __complete WORD...` (hidden): what the completion scripts ask. The
// words are those after `vouch` up to the cursor, the last one the word being
// completed. Prints the answer's kind, then one `value<TAB>description` per
// candidate. Never writes anything, never prints an error: a completion that
// cannot tell offers nothing (exit 0 always), so a shell never shows a message.
import { complete, type Completion } from "./completion/complete.ts";
import { ledgerSources } from "./completion/ledger-sources.ts";
import type { CliIO } from "./io.ts";
import { sanitizeInline } from "../text/sanitize.ts";

export function answer(c: Completion): string {
  if (c.kind !== "words") return `${c.kind}\n`;
  const lines = c.words.map((w) => (w.description ? `${w.value}\t${sanitizeInline(w.description).replace(/\t/g, " ")}` : w.value));
  return `words\n${lines.map((l) => `${l}\n`).join("")}`;
}

export function completeCommand(words: string[], io: CliIO): number {
  const sources = ledgerSources(io.env, io.cwd);
  try {
    io.out(answer(complete(words, sources)));
  } catch {
    io.out("none\n");
  } finally {
    try {
      sources.close();
    } catch {
      // nothing to tell a shell
    }
  }
  return 0;
}
