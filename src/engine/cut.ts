// Cutting text to fit an event: the end of an output (where the error is), the
// start of a prompt. Plain string functions, shared by the engine and the spawn seam.

export const PROMPT_EVENT_LIMIT = 4000;
export const TAIL_LIMIT = 2000;

/** The last `limit` characters. */
export function tail(text: string, limit = TAIL_LIMIT): string {
  return text.length <= limit ? text : text.slice(text.length - limit);
}

/** The first `limit` characters, with an ellipsis when cut. */
export function head(text: string, limit = PROMPT_EVENT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
