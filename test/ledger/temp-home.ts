// A fresh ledger folder per test, removed afterwards.
import { afterEach, beforeEach } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openLedger, type RunLedger } from "../../src/ledger/index.ts";

export interface TempHome {
  home: string;
  cleanup(): void;
}

export function tempHome(): TempHome {
  const dir = mkdtempSync(join(tmpdir(), "vouch-ledger-"));
  return { home: join(dir, ".vouch"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Before each test: a fresh home and a ledger opened in it, handed to `set`; after: closed and removed. */
export function eachFreshLedger(set: (home: TempHome, ledger: RunLedger) => void): void {
  let current: { home: TempHome; ledger: RunLedger } | null = null;
  beforeEach(() => {
    const home = tempHome();
    current = { home, ledger: openLedger({ home: home.home }) };
    set(current.home, current.ledger);
  });
  afterEach(() => {
    current?.ledger.close();
    current?.home.cleanup();
    current = null;
  });
}
