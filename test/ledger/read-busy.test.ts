// A reader (vouch watch, show --follow, runs) meets a ledger another process
// holds for a moment — the last writer closing checkpoints it under an exclusive
// lock. On main the read-only open had no busy timeout: it failed at once with
// "stayed locked by another process" and `vouch watch` ended 3 on a run that passed.
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { openLedger, openLedgerReadOnly } from "../../src/ledger/index.ts";
import { tempHome, type TempHome } from "./temp-home.ts";

let h: TempHome;
beforeEach(() => {
  h = tempHome();
  openLedger({ home: h.home }).close();
});
afterEach(() => h.cleanup());

test("a read-only open waits out a brief exclusive hold instead of failing", async () => {
  const child = Bun.spawn(["bun", join(import.meta.dirname, "exclusive-holder.ts"), join(h.home, "ledger.sqlite"), "400"], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain("locked");
  // Blocks this thread while the child holds the file: the open must wait, not throw.
  const ledger = openLedgerReadOnly({ home: h.home });
  try {
    expect(ledger.listRuns()).toEqual([]);
  } finally {
    ledger.close();
  }
  expect(await child.exited).toBe(0);
}, 30_000);
