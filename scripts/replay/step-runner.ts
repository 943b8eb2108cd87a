// Recorded sittings for graphs/step-runner.yaml on the sample repository, task
// "Make TtlCache.get honour ttlMs": the first review asks for a fix, the feedback
// loop sends it back to implement, the second review is clean, the run hands off.
// (Replay prints what a model said; it edits no file, so the checks see the sample
// repository as it is — and they run for real.)
import { EDIT_TOOLS, type SittingSpec } from "./claude-stream.ts";

export const stepRunnerFixtures: Record<string, SittingSpec> = {
  "implement.r1": {
    session: "9e2f3a4b-0001-4c00-8000-0000000000i1",
    tools: EDIT_TOOLS,
    steps: [
      { tool: "Read", input: { file_path: "src/cache.js" }, result: "export class TtlCache {" },
      {
        tool: "Edit",
        input: {
          file_path: "src/cache.js",
          old_string: "return entry.value;",
          new_string: "if (this.now() - entry.at > this.ttlMs) return undefined;\n    return entry.value;",
        },
        result: "The file src/cache.js has been updated.",
      },
      { tool: "Bash", input: { command: "./scripts/test" }, result: "tests ok" },
    ],
    costUsd: 0.1124,
    text: "TtlCache.get now returns undefined for an entry older than ttlMs. The expired entry stays in the map.",
  },
  "review.r1": {
    session: "9e2f3a4b-0002-4c00-8000-0000000000v1",
    steps: [{ tool: "Read", input: { file_path: "src/cache.js" }, result: "  get(key) {" }],
    costUsd: 0.0431,
    text: JSON.stringify({
      decision: "fix",
      issues: ["get() hides expired entries but never deletes them, so size() still counts them: delete the entry when it has expired."],
    }),
  },
  "implement.r2": {
    session: "9e2f3a4b-0003-4c00-8000-0000000000i2",
    tools: EDIT_TOOLS,
    steps: [
      {
        tool: "Edit",
        input: {
          file_path: "src/cache.js",
          old_string: "if (this.now() - entry.at > this.ttlMs) return undefined;",
          new_string: "if (this.now() - entry.at > this.ttlMs) {\n      this.entries.delete(key);\n      return undefined;\n    }",
        },
        result: "The file src/cache.js has been updated.",
      },
      { tool: "Bash", input: { command: "./scripts/test" }, result: "tests ok" },
    ],
    costUsd: 0.0876,
    text: "An expired entry is now deleted when get() finds it, so size() no longer counts it once it has been read.",
  },
  "review.r2": {
    session: "9e2f3a4b-0004-4c00-8000-0000000000v2",
    steps: [{ tool: "Read", input: { file_path: "src/cache.js" }, result: "  get(key) {" }],
    costUsd: 0.0398,
    text: JSON.stringify({ decision: "clean", issues: [] }),
  },
};
