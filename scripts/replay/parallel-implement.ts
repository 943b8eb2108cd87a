// Recorded sittings for graphs/parallel-implement.yaml on a git copy of the
// sample repository, tasks (one per line, in this order):
//   0 "Make TtlCache.get honour ttlMs"         edits src/cache.js
//   1 "Make slugify keep digits"               edits src/slug.js
//   2 "Make the tests pass"                    edits scripts/test (protected: tampered)
//   3 "Make TtlCache.get delete expired entries" edits the same lines of src/cache.js as 0
// Each sitting's edits are recorded beside it (<name>.edits.json) and applied in
// its worktree by the replay harness (ADR 0021): 0 and 1 merge, 3 passes its own
// checks but conflicts with 0 at the merge, 2 never reaches it.
import type { ReplayEdit } from "../../src/spawn/harness/replay/edits.ts";
import { EDIT_TOOLS, type SittingSpec, type ToolStep } from "./claude-stream.ts";

const CACHE_HEAD = `// A small time-to-live cache.
export class TtlCache {
  constructor(ttlMs, now = () => Date.now()) {
    this.ttlMs = ttlMs;
    this.now = now;
    this.entries = new Map();
  }

  set(key, value) {
    this.entries.set(key, { value, at: this.now() });
  }

  get(key) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
`;
const CACHE_RETURN = "    return entry.value;";
const CACHE_TAIL = `${CACHE_RETURN}
  }

  size() {
    return this.entries.size;
  }
}
`;

/** A sitting that puts `guard` before TtlCache.get's return: its Read and Edit
 *  steps, and the file the edit leaves (one string, so the two cannot drift). */
function guardCacheGet(guard: string): { steps: ToolStep[]; edit: ReplayEdit } {
  return {
    steps: [
      { tool: "Read", input: { file_path: "src/cache.js" }, result: "export class TtlCache {" },
      {
        tool: "Edit",
        input: { file_path: "src/cache.js", old_string: CACHE_RETURN, new_string: `${guard}${CACHE_RETURN}` },
        result: "The file src/cache.js has been updated.",
      },
    ],
    edit: { path: "src/cache.js", content: `${CACHE_HEAD}${guard}${CACHE_TAIL}` },
  };
}
const honourTtl = guardCacheGet("    if (this.now() - entry.at > this.ttlMs) return undefined;\n");
const deleteExpired = guardCacheGet(
  "    if (this.now() - entry.at > this.ttlMs) {\n      this.entries.delete(key);\n      return undefined;\n    }\n",
);

export const parallelImplementFixtures: Record<string, SittingSpec> = {
  "implement.0": {
    session: "8d3e4f50-0001-4d00-8000-0000000000p0",
    tools: EDIT_TOOLS,
    steps: [...honourTtl.steps, { tool: "Bash", input: { command: "./scripts/test" }, result: "tests ok" }],
    costUsd: 0.0934,
    text: "TtlCache.get now returns undefined for an entry older than ttlMs.",
    edits: [honourTtl.edit],
  },
  "implement.1": {
    session: "8d3e4f50-0002-4d00-8000-0000000000p1",
    tools: EDIT_TOOLS,
    steps: [
      { tool: "Read", input: { file_path: "src/slug.js" }, result: "export function slugify(title) {" },
      {
        tool: "Edit",
        input: { file_path: "src/slug.js", old_string: "[^a-z]+", new_string: "[^a-z0-9]+" },
        result: "The file src/slug.js has been updated.",
      },
    ],
    costUsd: 0.0612,
    text: "slugify keeps digits now: only characters other than letters and digits become separators.",
    edits: [
      {
        path: "src/slug.js",
        content: `// Turns a title into a URL slug: "Hello, World" -> "hello-world".\nexport function slugify(title) {\n  return title\n    .toLowerCase()\n    .replace(/[^a-z0-9]+/g, "-")\n    .replace(/^-|-$/g, "");\n}\n`,
      },
    ],
  },
  "implement.2": {
    session: "8d3e4f50-0003-4d00-8000-0000000000p2",
    tools: EDIT_TOOLS,
    steps: [
      { tool: "Bash", input: { command: "./scripts/test" }, result: "FAIL src/x.js exports nothing" },
      {
        tool: "Write",
        input: { file_path: "scripts/test", content: "#!/bin/sh\necho tests ok\n" },
        result: "The file scripts/test has been written.",
      },
    ],
    costUsd: 0.0301,
    text: "The tests pass now.",
    edits: [{ path: "scripts/test", content: "#!/bin/sh\necho tests ok\n", executable: true }],
  },
  "implement.3": {
    session: "8d3e4f50-0004-4d00-8000-0000000000p3",
    tools: EDIT_TOOLS,
    steps: deleteExpired.steps,
    costUsd: 0.0788,
    text: "An expired entry is deleted when get() finds it.",
    edits: [deleteExpired.edit],
  },
};
