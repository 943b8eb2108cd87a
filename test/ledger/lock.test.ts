// The run lock with real processes: a live holder makes the run `running` and
// refuses a second taker; kill -9 of the holder makes it `abandoned` and free.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { ResumeRefusedError } from "../../src/engine/errors.ts";
import { acquireRunLock, isRunLive, lockFile, openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
const children: Subprocess[] = [];
beforeEach(() => (t = tempHome()));
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.kill("SIGKILL");
    await c.exited;
  }
  t.cleanup();
});

const HOLDER = join(import.meta.dirname, "lock-holder.ts");

async function startHolder(run: string): Promise<Subprocess<"ignore", "pipe", "pipe">> {
  const child = Bun.spawn([process.execPath, HOLDER, t.home, run], { stdout: "pipe", stderr: "pipe" });
  children.push(child);
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`holder exited: ${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  expect(text).toContain(`held ${lockFile(t.home, run)}`);
  return child;
}

describe("a run held by a live process", () => {
  test("is live and `running`; taking its lock is refused, naming the holder's pid", async () => {
    const child = await startHolder("r-live");
    const ledger = openLedger({ home: t.home });
    expect(ledger.isRunLive("r-live")).toBe(true);
    expect(ledger.listRuns()[0]).toMatchObject({ id: "r-live", status: "running", live: true, exit_code: null });
    const shown = ledger.runSummary("r-live");
    expect(shown.sessions[0]!.status).toBe("running");
    expect(shown.nodes.find((n) => n.node === "build")!.status).toBe("running");
    let refusal: unknown;
    try {
      ledger.acquireRunLock("r-live");
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(ResumeRefusedError);
    expect((refusal as ResumeRefusedError).exitCode).toBe(2);
    expect((refusal as Error).message).toBe(
      `run r-live is live: vouch process ${child.pid} (holding it since ${(refusal as Error).message.match(/since ([^)]+)\)/)![1]}) holds its lock (${lockFile(t.home, "r-live")})`,
    );
    ledger.close();
  });

  test("after kill -9 of the holder it is `abandoned`, and the lock can be taken again", async () => {
    const child = await startHolder("r-dead");
    const ledger = openLedger({ home: t.home });
    expect(ledger.listRuns()[0]!.status).toBe("running");
    child.kill("SIGKILL");
    await child.exited;
    expect(ledger.isRunLive("r-dead")).toBe(false);
    const listed = ledger.listRuns()[0]!;
    expect(listed).toMatchObject({ status: "abandoned", live: false, exit_code: null });
    // The wall of an abandoned run ends at its last event, not at "now".
    expect(listed.wall_ms).toBe(100);
    const summary = ledger.runSummary("r-dead");
    expect(summary.nodes.find((n) => n.node === "build")!.status).toBe("unfinished");
    const lock = ledger.acquireRunLock("r-dead");
    expect(ledger.isRunLive("r-dead")).toBe(true);
    lock.release();
    expect(ledger.isRunLive("r-dead")).toBe(false);
    ledger.close();
  });
});

describe("the lock in one process", () => {
  test("release frees it; release twice is harmless; the lock file stays (no delete race)", () => {
    const a = acquireRunLock(t.home, "r-1");
    expect(() => acquireRunLock(t.home, "r-1")).toThrow(ResumeRefusedError);
    a.release();
    a.release();
    expect(existsSync(lockFile(t.home, "r-1"))).toBe(true);
    const b = acquireRunLock(t.home, "r-1");
    b.release();
  });

  test("a run never locked is not live, and no lock file is created by asking", () => {
    expect(isRunLive(t.home, "r-never")).toBe(false);
    expect(existsSync(lockFile(t.home, "r-never"))).toBe(false);
  });

  test("run ids that are not plain file names cannot escape the locks folder", () => {
    const file = lockFile(t.home, "../../etc/passwd");
    expect(file.startsWith(join(t.home, "locks") + "/")).toBe(true);
    expect(file).toMatch(/\/h-[0-9a-f]{32}\.lock$/);
    const lock = acquireRunLock(t.home, "../../etc/passwd");
    lock.release();
  });

  test("a finished run shows its own status whether or not a lock is held", () => {
    const ledger = openLedger({ home: t.home });
    const s = new RunScript("r-done");
    s.started();
    s.runFinished("failed");
    ledger.write(s.events);
    const lock = ledger.acquireRunLock("r-done");
    expect(ledger.listRuns()[0]).toMatchObject({ status: "failed", exit_code: 1, live: false });
    lock.release();
    expect(ledger.listRuns()[0]).toMatchObject({ status: "failed", exit_code: 1 });
    ledger.close();
  });
});

describe("a lock nobody keeps a reference to", () => {
  test("stays held through garbage collection (Bun closes collected databases)", async () => {
    // Wait on the event, not on a clock: the lock handle is seen collected
    // (its finalizer ran), then a few more collections close anything else
    // that was only reachable through it.
    let collected = false;
    const registry = new FinalizationRegistry(() => (collected = true));
    (() => void registry.register(acquireRunLock(t.home, "r-gc"), "lock"))();
    const turn = () => new Promise((r) => setImmediate(r));
    for (let i = 0; i < 500 && !collected; i++) {
      Bun.gc(true);
      await turn();
    }
    expect(collected).toBe(true);
    for (let i = 0; i < 3; i++) {
      Bun.gc(true);
      await turn();
    }
    expect(isRunLive(t.home, "r-gc")).toBe(true);
  });
});
