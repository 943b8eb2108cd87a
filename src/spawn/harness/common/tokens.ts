// Token counts as events carry them: input (not cached), output, cache read,
// cache creation. The four fields add up to what the model processed.
import type { Tokens } from "../../../engine/events.ts";

type Json = Record<string, unknown>;

/** A non-negative whole number, or 0 for anything else (missing, negative, NaN). */
export function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0;
}

export function sumTokens(all: Tokens[]): Tokens {
  const sum: Tokens = { input: 0, output: 0, cache_read: 0, cache_creation: 0 };
  for (const t of all) {
    sum.input += t.input;
    sum.output += t.output;
    sum.cache_read += t.cache_read;
    sum.cache_creation += t.cache_creation;
  }
  return sum;
}

/** Claude's usage block: input_tokens already excludes the cache fields. */
export function claudeTokens(usage: Json): Tokens {
  return {
    input: count(usage.input_tokens),
    output: count(usage.output_tokens),
    cache_read: count(usage.cache_read_input_tokens),
    cache_creation: count(usage.cache_creation_input_tokens),
  };
}

/** OpenAI- and Gemini-style counts, where the input figure includes the cached
 *  part: split it so cached tokens are not counted twice. */
export function inclusiveTokens(input: unknown, cached: unknown, output: unknown): Tokens {
  const c = count(cached);
  return { input: Math.max(0, count(input) - c), output: count(output), cache_read: c, cache_creation: 0 };
}
