// The lean per-process path (issue 29 item 2, ADR 0075), bounded by counts, never by time:
// timers made per process, reads of vouch's environment per command, and file-system
// calls per command of the handover. Each bound failed on the code before it.
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { runProcess } from "../../src/spawn/process.ts";
import { tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());
afterEach(() => vi.restoreAllMocks());

/** Counts the setTimeout calls made from src/spawn while `body` runs. */
async function spawnTimers(body: () => Promise<void>): Promise<number> {
  const real = globalThis.setTimeout;
  let count = 0;
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
    if (/src\/spawn\//.test(new Error().stack ?? "")) count++;
    return real(fn, ms, ...rest);
  }) as typeof setTimeout);
  try {
    await body();
  } finally {
    spy.mockRestore();
  }
  return count;
}

describe("timers per process", () => {
  test("a command whose pipes closed at its exit makes no settle timer: none without caps, one with a wall cap", async () => {
    const runs = 10;
    const bare = await spawnTimers(async () => {
      for (let i = 0; i < runs; i++) expect((await runProcess({ shell: "true" }, { cwd: dir.path, env: TEST_ENV })).exit).toBe(0);
    });
    // Before: one settle timer (DRAIN_MS) per process, though the pipes were already closed.
    expect(bare).toBe(0);
    const capped = await spawnTimers(async () => {
      for (let i = 0; i < runs; i++)
        expect((await runProcess({ shell: "echo hi; echo err >&2" }, { cwd: dir.path, env: TEST_ENV, wallMs: 60_000 })).exit).toBe(0);
    });
    expect(capped).toBe(runs);
  });

  test("a grandchild holding the pipes after the exit still gets the settle timer (and is killed with the group)", async () => {
    let r: Awaited<ReturnType<typeof runProcess>> | undefined;
    const timers = await spawnTimers(async () => {
      r = await runProcess({ shell: "sleep 30 & echo started" }, { cwd: dir.path, env: TEST_ENV });
    });
    expect(r?.stdoutTail).toBe("started\n");
    expect(timers).toBeGreaterThanOrEqual(1);
  });
});
