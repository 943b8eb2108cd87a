import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig, type Plugin } from "vitest/config";

/** `import x from "graphs/plan.yaml" with { type: "text" }` (Bun's text import, built into
 *  the binary) read as the file's text under vitest too. */
const yamlAsText: Plugin = {
  name: "vouch-yaml-as-text",
  enforce: "pre",
  load(id) {
    const file = id.split("?")[0]!;
    return file.endsWith(".yaml") ? `export default ${JSON.stringify(readFileSync(file, "utf8"))};` : null;
  },
};

const ALL = ["test/**/*.test.ts", "test/**/*.test.tsx"];
/** Files of in-process code only (no module state kept between files, no mocks, no
 *  environment set): run several to a worker process instead of a fresh process each. */
const UNITS = ["engine", "tui", "graph", "read", "remote", "text", "drift"].flatMap((d) => [
  `test/${d}/**/*.test.ts`,
  `test/${d}/**/*.test.tsx`,
]);
/** Of those, the ones that do set something for the whole process. */
const OWN_PROCESS = [
  "test/tui/color.test.tsx", // FORCE_COLOR, read once by chalk
  "test/graph/loader-growth.test.ts", // vi.mock of a module others import
  "test/graph/loader-no-eval.test.ts", // counts what zod compiles on its first use in the process
];
/** Files that compute for many seconds (property tests, a 150-process burst on one
 *  ledger): run after the rest, a core each, rather than a share of one under their
 *  timeouts (each failed at 4 files at once on a loaded machine; ADR 0087). */
const COMPUTING = [
  "test/graph/schema-fast.test.ts",
  "test/graph/property.test.ts",
  "test/tui/view-model.test.ts",
  "test/e2e/run-id-concurrency.test.ts",
];

/** Files at once. Vitest's default is one fewer than the cores: one worker on a 2-core
 *  machine, which ran the 404 files one after another while most of their time is
 *  waiting on the processes they start (the vouch binary, fake agents and model
 *  servers, redis, git, tmux), not computing (ADR 0087). */
const WORKERS = Math.max(4, availableParallelism());

export default defineConfig({
  plugins: [yamlAsText],
  test: {
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The second reporter prints, after the summary, which contract tests were
    // skipped because the real CLIs are not installed, and how to install them.
    reporters: ["default", "./test/contract/lib/skip-reporter.ts"],
    // Project names sort the queue: "processes" (the long files, longest first) starts
    // before "units".
    projects: [
      { extends: true, test: { name: "processes", include: ALL, exclude: [...UNITS, ...COMPUTING], maxWorkers: WORKERS } },
      {
        extends: true,
        test: { name: "units", include: UNITS, exclude: [...OWN_PROCESS, ...COMPUTING], isolate: false, maxWorkers: WORKERS },
      },
      { extends: true, test: { name: "units-own-process", include: OWN_PROCESS, maxWorkers: WORKERS } },
      {
        extends: true,
        test: { name: "computing", include: COMPUTING, maxWorkers: Math.max(1, availableParallelism()), sequence: { groupOrder: 1 } },
      },
    ],
  },
});
