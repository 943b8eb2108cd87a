// A handover folder is owned from the moment it exists: were there an await
// between making it and handing it to its ProcessSupervisor, a process.exit in
// that gap (a second Ctrl-C) would leave it in TMPDIR with the run's state in it.
import { afterEach, describe, expect, test } from "vitest";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { HandoverStore, type FolderOwner } from "../../src/spawn/handover-files.ts";
import { tempDir } from "./helpers.ts";

const HOST = join(import.meta.dirname, "fixtures", "handover-exit-host.ts");
const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

describe("handover folders and an exit at any moment", () => {
  test("the folder is in its owner's hands the moment it exists (acquire never yields)", async () => {
    const d = tempDir();
    dirs.push(d);
    const tracked: string[] = [];
    const owner: FolderOwner = {
      trackFolder(dir) {
        tracked.push(dir);
        return async () => {};
      },
    };
    const handover = new HandoverStore(owner, d.path).acquire({ state: { n: 1 } });
    // Synchronously: nothing could have run in between (a signal handler, process.exit).
    expect(tracked.map((dir) => existsSync(dir))).toEqual([true]);
    expect(handover.vars.VOUCH_STATE_FILE!.startsWith(tracked[0]!)).toBe(true);
  });

  test("process.exit while the folder is being made leaves nothing in TMPDIR", async () => {
    for (let i = 0; i < 5; i++) {
      const d = tempDir();
      dirs.push(d);
      const host = Bun.spawn([process.execPath, HOST, d.path], { stdout: "inherit", stderr: "inherit" });
      expect(await host.exited).toBe(130);
      expect(readdirSync(d.path)).toEqual([]);
    }
  });
});
