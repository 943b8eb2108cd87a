// Shared by the harness tests: where the fixtures live, and a way to feed a
// whole output to a parser as runProcess would.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { StreamEnd, StreamParser } from "../../src/spawn/harness/types.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
export const FIXTURES = join(ROOT, "test", "fixtures", "claude");
export const STUBS = join(ROOT, "test", "stubs", "harness");

/** Real Claude Code results, unedited (provenance in its README.md). */
export const CLAUDE_REFERENCE = join(ROOT, "test", "fixtures", "claude-reference");

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}

export const CLEAN_END: StreamEnd = { exit: 0, signal: null, stdoutTail: "", stderrTail: "", truncated: false };

/** Feeds text line by line (as runProcess's onStdoutLine does) and finishes. */
export function parseAll(parser: StreamParser, text: string, end: Partial<StreamEnd> = {}) {
  const progress = [];
  for (const line of text.split("\n")) {
    const p = parser.feed(line);
    if (p) progress.push(p);
  }
  return { progress, sitting: parser.finish({ ...CLEAN_END, ...end }) };
}
