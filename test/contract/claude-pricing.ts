// The model every claude contract scenario asks for, and what the pinned claude
// charges for it (measured against the fake server: $3 per million input
// tokens, $15 per million output tokens), so a test can state the cost a
// scripted usage must come to.
export const MODEL = "claude-sonnet-4-5";

export function costOf(inputTokens: number, outputTokens: number): number {
  return (inputTokens * 3 + outputTokens * 15) / 1_000_000;
}

/** A usage costing `usd` (all input tokens). */
export function usageCosting(usd: number): { input_tokens: number; output_tokens: number } {
  return { input_tokens: Math.round((usd * 1_000_000) / 3), output_tokens: 0 };
}
