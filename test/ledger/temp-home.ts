// A fresh ledger folder per test, removed afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function tempHome(): { home: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "vouch-ledger-"));
  return { home: join(dir, ".vouch"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
