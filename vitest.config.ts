import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The second reporter prints, after the summary, which contract tests were
    // skipped because the real CLIs are not installed, and how to install them.
    reporters: ["default", "./test/contract/lib/skip-reporter.ts"],
  },
});
