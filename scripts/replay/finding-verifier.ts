// The recorded sittings the offline demo replays: graphs/finding-verifier.replay/.
// They are what a careful model would answer about examples/sample-repo, with the
// failure modes the demo must show: a contract violation re-asked once, a wrong
// citation caught by the engine's check, and a sitting that overruns its turns cap.
import type { SittingSpec } from "./claude-stream.ts";

const CACHE = `// A small time-to-live cache.
export class TtlCache {
  ...
  get(key) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    return entry.value;
  }`;

const verdict = (v: object) => JSON.stringify(v);

export const findingVerifierFixtures: Record<string, SittingSpec> = {
  parse: {
    session: "5b0c1d2e-0000-4a00-8000-00000000pars",
    tools: [],
    steps: [],
    costUsd: 0.0121,
    text: JSON.stringify({
      findings: [
        {
          id: "F1",
          title: "TtlCache never expires entries",
          claim: "TtlCache.get returns a stored value however old it is; ttlMs is never read.",
          where: "src/cache.js",
        },
        {
          id: "F2",
          title: "parseDuration accepts negative durations",
          claim: 'parseDuration("-5s") returns -5000 instead of throwing.',
          where: "src/duration.js",
        },
        {
          id: "F3",
          title: "The HTTP client retries forever",
          claim: "src/net.js retries failed requests in a loop with no backoff and no limit.",
          where: "src/net.js",
        },
        {
          id: "F4",
          title: "slugify drops digits",
          claim: 'slugify("Top 10 tips") returns "top-tips": digits are treated as separators.',
          where: "src/slug.js",
        },
        {
          id: "F5",
          title: "TtlCache.size counts expired entries",
          claim: "size() reports entries that should have expired.",
          where: "src/cache.js",
        },
        {
          id: "F6",
          title: "slugify corrupts emoji",
          claim: "Titles with emoji produce broken UTF-16 surrogate halves in the slug.",
          where: "src/slug.js",
        },
      ],
    }),
  },
  "verify_one.0": {
    session: "5b0c1d2e-0001-4a00-8000-0000000000f1",
    steps: [
      { tool: "Grep", input: { pattern: "ttlMs", path: "src" }, result: "src/cache.js:4:    this.ttlMs = ttlMs;" },
      { tool: "Read", input: { file_path: "src/cache.js" }, result: CACHE },
    ],
    costUsd: 0.0412,
    text: verdict({
      id: "F1",
      verdict: "VERIFIED",
      evidence: [
        { at: "src/cache.js:16", quote: "return entry.value;" },
        { at: "src/cache.js:4", quote: "this.ttlMs = ttlMs;" },
      ],
      note: "get() returns the entry without comparing its age to ttlMs; ttlMs is stored and never read again.",
    }),
  },
  "verify_one.1": {
    session: "5b0c1d2e-0002-4a00-8000-0000000000f2",
    steps: [
      {
        tool: "Read",
        input: { file_path: "src/duration.js" },
        result: "export function parseDuration(text) {\n  const match = /^(\\d+)(ms|s|m)$/.exec(text);",
      },
    ],
    costUsd: 0.0298,
    text: verdict({
      id: "F2",
      verdict: "FALSE",
      evidence: [{ at: "src/duration.js:4", quote: "if (!match) throw new Error(`bad duration: ${text}`);" }],
      note: 'The pattern only admits digits before the unit, so "-5s" does not match and line 4 throws.',
    }),
  },
  "verify_one.2": {
    session: "5b0c1d2e-0003-4a00-8000-0000000000f3",
    steps: [
      { tool: "Glob", input: { pattern: "**/net*" }, result: "No files found" },
      { tool: "Grep", input: { pattern: "retry|fetch|http", path: "." }, result: "No matches found" },
    ],
    costUsd: 0.0187,
    text: verdict({
      id: "F3",
      verdict: "UNVERIFIABLE",
      evidence: [],
      note: "There is no src/net.js and no HTTP client anywhere in the project.",
    }),
  },
  // F4: the first answer breaks the contract (prose, not JSON); the engine quotes the
  // reason back and the second sitting answers properly.
  "verify_one.3.a1": {
    session: "5b0c1d2e-0004-4a00-8000-00000000f4a1",
    steps: [{ tool: "Read", input: { file_path: "src/slug.js" }, result: '    .replace(/[^a-z]+/g, "-")' }],
    costUsd: 0.0221,
    text: "Yes, this finding is correct: the character class [^a-z] treats digits as separators, so digits are dropped.",
  },
  "verify_one.3.a2": {
    session: "5b0c1d2e-0004-4a00-8000-00000000f4a2",
    steps: [],
    costUsd: 0.0102,
    text: verdict({
      id: "F4",
      verdict: "VERIFIED",
      evidence: [{ at: "src/slug.js:5", quote: ".replace(/[^a-z]+/g" }],
      note: "The class [^a-z] matches digits, so they are replaced by the separator.",
    }),
  },
  // F5: the model is confident but cites a line that does not exist: the engine's
  // citations check fails and the finding is recorded UNVERIFIABLE.
  "verify_one.4": {
    session: "5b0c1d2e-0005-4a00-8000-0000000000f5",
    steps: [{ tool: "Grep", input: { pattern: "size\\(\\)", path: "src/cache.js" }, result: "src/cache.js:19:  size() {" }],
    costUsd: 0.0176,
    text: verdict({
      id: "F5",
      verdict: "VERIFIED",
      evidence: [{ at: "src/cache.js:40", quote: "return this.entries.size;" }],
      note: "size() returns the map size, which includes expired entries.",
    }),
  },
  // F6: the model wanders and is stopped by its turns cap (8): it reports 9 turns.
  "verify_one.5": {
    session: "5b0c1d2e-0006-4a00-8000-0000000000f6",
    steps: [
      { tool: "Read", input: { file_path: "src/slug.js" }, result: "export function slugify(title) {" },
      { tool: "Grep", input: { pattern: "emoji", path: "." }, result: "No matches found" },
      { tool: "Grep", input: { pattern: "codePoint|surrogate", path: "." }, result: "No matches found" },
      { tool: "Glob", input: { pattern: "**/*.test.js" }, result: "No files found" },
      { tool: "Read", input: { file_path: "src/duration.js" }, result: "export function parseDuration(text) {" },
      { tool: "Read", input: { file_path: "src/cache.js" }, result: "export class TtlCache {" },
      { tool: "Grep", input: { pattern: "toLowerCase", path: "." }, result: "src/slug.js:4:    .toLowerCase()" },
      { tool: "Glob", input: { pattern: "**/*.md" }, result: "REVIEW.md" },
    ],
    subtype: "error_max_turns",
    turns: 9,
    costUsd: 0.1432,
    text: "",
    errors: ["Reached maximum number of turns (8)"],
  },
};
