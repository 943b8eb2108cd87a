// Supervisors whose processes start on spawn workers of their own (ADR 0081), for the spawn-thread
// tests: each pool is closed after the file, so no worker outlives the tests that made it.
import { afterAll } from "vitest";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { SpawnThreads, startOffThread } from "../../src/spawn/process/spawn-threads.ts";

export type OffThread = (threads?: SpawnThreads) => { supervisor: ProcessSupervisor; threads: SpawnThreads };

/** A maker of a supervisor with its own pool (`pool()` unless one is given), closed after the file. */
export function offThreadPools(pool: () => SpawnThreads = () => new SpawnThreads()): OffThread {
  const pools: SpawnThreads[] = [];
  afterAll(() => {
    for (const p of pools) p.close();
  });
  return (threads = pool()) => {
    const supervisor = new ProcessSupervisor();
    pools.push(startOffThread(supervisor, threads));
    return { supervisor, threads };
  };
}
