// The command runners of a worker's runs (ADR 0090): the jobs of one run share one runner
// and its handover folder, instead of a folder made, written and removed per job (a fifth of
// a `true` branch's CPU on the worker). Runs never share one: a sealed process is bound the
// folder of its handover files read-only (ADR 0073), so a folder shared by runs would show a
// process of one run the inputs of another. A long-lived worker keeps the runners of its last
// few runs, and closes the oldest idle one past that bound.
import type { CommandRunner } from "../engine/ports.ts";
import type { ClosableCommandRunner } from "../spawn/command-runner.ts";

/** Runs whose runner (and folder) a worker keeps once their jobs have ended. */
export const WORKER_RUNS_KEPT = 4;

interface Kept {
  runner: ClosableCommandRunner;
  /** Jobs of the run under way: a runner with any is never closed but by closeAll. */
  live: number;
}

export class WorkerRunners {
  /** In order of last use, oldest first. */
  private readonly runs = new Map<string, Kept>();

  constructor(private readonly make: () => ClosableCommandRunner) {}

  /** The runner for one job of `run`; `done` once the job has ended (a second call does nothing). */
  take(run: string): { runner: CommandRunner; done(): Promise<void> } {
    const kept = this.runs.get(run) ?? { runner: this.make(), live: 0 };
    this.runs.delete(run);
    this.runs.set(run, kept);
    kept.live++;
    let ended = false;
    return {
      runner: kept.runner,
      done: async () => {
        if (ended) return;
        ended = true;
        kept.live--;
        // Another run's folder failing to go is no fault of this job: its outcome stands.
        await this.trim().catch(() => {});
      },
    };
  }

  /** Closes every runner: the worker stops, its jobs have ended. */
  async closeAll(): Promise<void> {
    const all = [...this.runs.values()];
    this.runs.clear();
    await Promise.all(all.map((k) => k.runner.close()));
  }

  /** Past the bound, the oldest idle runners go (removed from the map before their close is
   *  awaited, so a job taking their run meanwhile gets a fresh one). */
  private async trim(): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [run, kept] of this.runs) {
      if (this.runs.size <= WORKER_RUNS_KEPT) break;
      if (kept.live > 0) continue;
      this.runs.delete(run);
      closing.push(kept.runner.close());
    }
    await Promise.all(closing);
  }
}
