// A vitest reporter, listed after the default one in vitest.config.ts, so its
// line is the last thing `npm test` prints: when a real CLI is not installed,
// its contract tests were skipped, and this says so and how to install them.
import type { Reporter } from "vitest/node";
import { INSTALL_COMMAND, missingClis } from "./clis.ts";

export function skipSummary(missing: readonly string[]): string | null {
  if (missing.length === 0) return null;
  return (
    `contract tests SKIPPED for ${missing.join(", ")}: the real CLI${missing.length > 1 ? "s are" : " is"} not installed ` +
    `in clis/node_modules. Run \`${INSTALL_COMMAND}\` (about 900 MB) and then \`npm test\` to run them offline (docs/real-clis.md).`
  );
}

export default class ContractSkipReporter implements Reporter {
  private ranContract = false;

  onTestModuleQueued(module: { moduleId: string }): void {
    if (module.moduleId.includes("/test/contract/")) this.ranContract = true;
  }

  onTestRunEnd(): void {
    if (!this.ranContract) return;
    const line = skipSummary(missingClis());
    if (line) process.stdout.write(`\n\u26a0 ${line}\n`);
  }
}
