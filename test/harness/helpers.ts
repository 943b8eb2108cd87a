// Shared by the harness tests: where fixtures and the shared reference live,
// and a way to feed a whole output to a parser as runProcess would.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { StreamEnd, StreamParser } from "../../src/spawn/harness/types.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
export const FIXTURES = join(ROOT, "test", "fixtures", "claude");
export const STUBS = join(ROOT, "test", "stubs", "harness");

/** ../shared/reference/claude-code from the project root (or /work/shared/... on the team machine). */
export function referenceDir(): string | null {
  const candidates = [
    process.env.VOUCH_REFERENCE_DIR,
    join(ROOT, "..", "shared", "reference", "claude-code"),
    join(ROOT, "..", "..", "shared", "reference", "claude-code"),
  ];
  for (const c of candidates) if (c && existsSync(join(c, "turns.json"))) return c;
  return null;
}

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
