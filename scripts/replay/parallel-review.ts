// Recorded sittings for graphs/parallel-review.yaml over the sample repository's
// three source files (src/cache.js, src/duration.js, src/slug.js, in that order).
import type { SittingSpec } from "./claude-stream.ts";

const answer = (v: object) => JSON.stringify(v);

export const parallelReviewFixtures: Record<string, SittingSpec> = {
  "review_file.0": {
    session: "7c1d2e3f-0001-4b00-8000-0000000000r1",
    steps: [{ tool: "Read", input: { file_path: "src/cache.js" }, result: "export class TtlCache {" }],
    costUsd: 0.0311,
    text: answer({
      file: "src/cache.js",
      verdict: "ISSUES",
      issues: [
        { at: "src/cache.js:16", problem: "get() never compares the entry's age with ttlMs, so entries never expire.", severity: "high" },
        { at: "src/cache.js:20", problem: "size() counts entries that should have expired.", severity: "medium" },
      ],
    }),
  },
  "review_file.1": {
    session: "7c1d2e3f-0002-4b00-8000-0000000000r2",
    steps: [{ tool: "Read", input: { file_path: "src/duration.js" }, result: "export function parseDuration(text) {" }],
    costUsd: 0.0207,
    text: answer({ file: "src/duration.js", verdict: "CLEAN", issues: [] }),
  },
  "review_file.2": {
    session: "7c1d2e3f-0003-4b00-8000-0000000000r3",
    steps: [{ tool: "Read", input: { file_path: "src/slug.js" }, result: "export function slugify(title) {" }],
    costUsd: 0.0236,
    text: answer({
      file: "src/slug.js",
      verdict: "ISSUES",
      issues: [{ at: "src/slug.js:5", problem: 'Digits are replaced by separators: "Top 10" becomes "top".', severity: "medium" }],
    }),
  },
};
