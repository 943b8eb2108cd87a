// Reading a `vouch doctor` probe's answer (ADR 0018): what every CLI's probe
// (src/spawn/harness/<name>/probe.ts) quotes of its parser's stderr.
import type { ProbeAnswer } from "../types.ts";

/** A closed port on this machine: a CLI that got past its checks fails to connect, nothing leaves it. */
export const NOWHERE = "http://127.0.0.1:9";

/** The first line of `text` that `re` matches, trimmed, or null. */
export const firstMatch = (text: string, re: RegExp): string | null => re.exec(text)?.[0]?.trim() ?? null;

/** The last line of stderr, else how the process ended. */
export function lastErrorLine(a: ProbeAnswer): string {
  return a.stderr.trim().split("\n").filter(Boolean).pop() ?? `exit ${a.exit ?? a.signal}`;
}

/** The verdict when the answer matched neither a rejection nor an acceptance. */
export function unknownAnswer(a: ProbeAnswer): { verdict: "unknown"; detail: string } {
  return { verdict: "unknown", detail: `exit ${a.exit ?? a.signal}: ${lastErrorLine(a)}` };
}
