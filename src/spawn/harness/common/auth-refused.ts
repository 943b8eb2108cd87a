// A refused key or login, read the same way on every harness (issue 28 item 5).
// claude called it a crash (after its own retries) while codex and gemini
// called it unavailable: one situation, two causes. It is `unavailable` on
// all: no verdict could be reached, and no retry helps — the next sitting
// meets the same credentials — until the user fixes them (exit 3). The error
// opens with one wording whatever the harness, then what the CLI said.
import type { StopReason } from "../../../engine/events.ts";

/** HTTP statuses that mean the credentials were refused: 401 (unknown or expired), 403 (not allowed). */
export const AUTH_HTTP_STATUSES: readonly number[] = [401, 403];

/** What the CLIs print for a refused key or login besides the status (claude, codex, gemini, ACP agents). */
export const AUTH_TEXT =
  /\b(?:401|403)\b|\bunauthori[sz]ed\b|\bUNAUTHENTICATED\b|\binvalid[ _-]api[ _-]key\b|\bAPI key not valid\b|\bincorrect API key\b|\bauthentication[ _]error\b|\bnot logged in\b|\bOAuth token has expired\b|\bauth(?:entication)? required\b/i;

/** The one wording of a refused key or login. */
export function authRefused(harness: string, said: string): { stopReason: StopReason; error: string } {
  const detail = said.trim().slice(0, 500);
  return {
    stopReason: "unavailable",
    error: `${harness}: the API key or login was refused (fix the credentials passed to it, then resume)${detail ? `: ${detail}` : ""}`,
  };
}
