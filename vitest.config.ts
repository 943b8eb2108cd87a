import { readFileSync } from "node:fs";
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

export default defineConfig({
  plugins: [yamlAsText],
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
