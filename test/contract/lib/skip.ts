// Contract tests run only where the real CLI is installed. Wrap a suite in
// describeCli(...): without the CLI every test in it is reported as skipped
// (never silently passed), and the run's summary names the command that
// installs them (skip-reporter.ts).
import { describe } from "vitest";
import { cliInstalled, type CliName } from "./clis.ts";

/** A describe block that runs only when `name` (every one of them, for a list) is installed in clis/node_modules. */
export function describeCli(name: CliName | readonly CliName[], title: string, body: () => void): void {
  const names: readonly CliName[] = typeof name === "string" ? [name] : name;
  describe.skipIf(!names.every(cliInstalled))(`${title} [real ${names.join(", ")}]`, body);
}
