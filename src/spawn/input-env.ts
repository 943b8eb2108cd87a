// How run inputs reach a command's environment (docs/graph-language.md, "How
// inputs reach commands"; ADR 0016). Every input is a file, named by
// VOUCH_INPUT_<NAME>_FILE; a small one is also the variable VOUCH_INPUT_<NAME>.
// Linux refuses to start a program when one environment string is over
// 128 KiB (MAX_ARG_STRLEN) or all of argv and the environment together are
// over about 2 MB (E2BIG): copying every input into the environment stopped
// every script and check of a run with one large input. Pure: the handover
// writes the files, this decides the variables.
import type { CommandInput } from "../engine/ports.ts";

/** The largest value also passed as VOUCH_INPUT_<NAME> (UTF-8 bytes). */
export const INLINE_INPUT_MAX_BYTES = 32 * 1024;
/** The most bytes of input values passed as variables to one command, all inputs together. */
export const INLINE_INPUTS_TOTAL_BYTES = 128 * 1024;

const encoder = new TextEncoder();

/**
 * VOUCH_INPUT_<NAME>_FILE for every input, and VOUCH_INPUT_<NAME> for those that
 * fit: at most INLINE_INPUT_MAX_BYTES, no NUL byte (an environment string ends
 * at NUL), and within INLINE_INPUTS_TOTAL_BYTES counted in the graph's order.
 * An input that does not fit has no VOUCH_INPUT_<NAME> at all (never a cut
 * value): `${VOUCH_INPUT_X:?}` fails loudly, and the file is always there.
 */
export function inputEnv(inputs: readonly CommandInput[], fileOf: (stem: string) => string): Record<string, string> {
  const vars: Record<string, string> = {};
  let inlined = 0;
  for (const { stem, text } of inputs) {
    vars[`VOUCH_INPUT_${stem}_FILE`] = fileOf(stem);
    // Bytes, not characters: a 40,000-character text of "é" is 80,000 bytes.
    const bytes = text.length > INLINE_INPUT_MAX_BYTES ? Infinity : encoder.encode(text).length;
    if (bytes > INLINE_INPUT_MAX_BYTES || inlined + bytes > INLINE_INPUTS_TOTAL_BYTES || text.includes("\0")) continue;
    vars[`VOUCH_INPUT_${stem}`] = text;
    inlined += bytes;
  }
  return vars;
}
