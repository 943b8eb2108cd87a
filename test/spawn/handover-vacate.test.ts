// ADR 0090 review: vacate() could rmdir the input folder write() had just made, before the
// new input file was renamed into it: acquire threw ENOENT and the command was an error.
// Reached when a command removed (or changed) two input files of its run, e.g. `rm -rf` of
// its input folder, once >= 8 released files are kept. Passed at ab3fe63, failed at 1b495ba.
import { expect, test } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { HandoverStore } from "../../src/spawn/handover-files.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";

test("a command that removed its inputs folder does not make the next acquire throw", async () => {
  const root = mkdtempSync(join(tmpdir(), "handover-vacate-"));
  const store = new HandoverStore(new ProcessSupervisor(), root);
  const inputs = [
    { stem: "A", text: "a" },
    { stem: "B", text: "b" },
  ];
  // Twelve commands at once (a map at concurrency 12), then all done: 16 released files kept.
  const held = Array.from({ length: 12 }, (_, i) => store.acquire({ state: { n: i }, item: i, inputs }));
  const folder = dirname(held[0]!.vars.VOUCH_INPUT_A_FILE!);
  for (const h of held) h.release();
  // What a command of the run did: removed its inputs' folder (unsealed, the worker's user).
  rmSync(folder, { recursive: true, force: true });
  let thrown: unknown = null;
  try {
    store.acquire({ state: { n: 99 }, item: 0, inputs }).release();
  } catch (e) {
    thrown = e;
  }
  await store.close();
  rmSync(root, { recursive: true, force: true });
  expect(String(thrown)).toBe("null");
});
