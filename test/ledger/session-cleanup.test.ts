// runSession lets go of everything it holds on every path. A full disk can make
// the sink's final close() throw (a commit that failed on the sink's timer is
// rethrown by close()): before the fix that skipped the rest of the clean-up —
// the run's lock stayed held, the ledger open, the output (the live UI) never
// closed and the signal handlers installed, so under the TUI vouch hung after
// the run, its screen still saying "running" (reproduced through dist/vouch
// with VOUCH_HOME on a 512 KiB tmpfs and four chatty sittings).
import { afterEach, beforeEach, expect, test } from "vitest";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { openLedger, type RunLedger } from "../../src/ledger/index.ts";
import { runSession } from "../../src/cli/run-session.ts";
import { readGraphFile } from "../../src/cli/graph-file.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

const full = () => Object.assign(new Error("the disk holding the ledger is full while appending events"), { name: "LedgerError" });

test("a sink whose close() throws still leaves the lock released, the ledger closed and the signal handlers removed", async () => {
  const dir = join(t.home, "..");
  const graphPath = join(dir, "g.yaml");
  writeFileSync(graphPath, 'version: 1\nname: g\nnodes:\n  a: { kind: script, run: "true" }\n');
  const g = readGraphFile(graphPath, dir, {});
  const real = openLedger({ home: t.home });
  let ledgerClosed = false;
  const ledger: RunLedger = Object.assign(Object.create(real) as RunLedger, {
    sink: (forward: Parameters<RunLedger["sink"]>[0], options: Parameters<RunLedger["sink"]>[1]) => {
      const s = real.sink(forward, options);
      return Object.assign(Object.create(s), {
        append: (e: Parameters<typeof s.append>[0]) => s.append(e),
        close: () => {
          s.close();
          throw full();
        },
      });
    },
    close: () => {
      ledgerClosed = true;
      real.close();
    },
  });
  const runId = "r-close-fails";
  const lock = ledger.acquireRunLock(runId);
  const out: string[] = [];
  const io: CliIO = {
    out: (x) => void out.push(x),
    err: () => {},
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env: { PATH: process.env.PATH },
    cwd: dir,
    streams: process,
  };
  const listeners = ["SIGINT", "SIGTERM", "SIGHUP"].map((s) => process.listenerCount(s));

  await expect(
    runSession({
      io,
      flags: { json: true },
      ledger,
      lock,
      options: { runId, graph: g.graph, graphPath: g.path, graphDigest: g.digest, inputs: {}, baseDir: dir, version: "test" },
    }),
  ).rejects.toThrow("disk holding the ledger is full");

  expect(["SIGINT", "SIGTERM", "SIGHUP"].map((s) => process.listenerCount(s))).toEqual(listeners);
  expect(ledgerClosed).toBe(true);
  const again = openLedger({ home: t.home });
  try {
    expect(again.isRunLive(runId)).toBe(false);
  } finally {
    again.close();
  }
});
