// runProcess's start on a spawn worker (spawn-threads.ts, ADR 0081), seen from the engine's
// thread: the group is registered here as soon as the worker says the child exists, so the
// session's supervisor kills it from here (killAll, shutdownAll) as it kills any other; a
// cancel (the run's, or the supervisor's) is posted to the worker, which stops the group.
import type { ProcessOptions, ProcessResult } from "../process-types.ts";
import type { SpawnThreads } from "./spawn-threads.ts";
import { THREAD_OPTION_KEYS, type ThreadOptions, type ThreadStarter } from "./spawn-thread-protocol.ts";
import { registerGroup } from "./terminate.ts";

export async function runOnThread(
  threads: SpawnThreads,
  argv: string[],
  cwd: string,
  options: ProcessOptions,
  startThread: ThreadStarter,
): Promise<ProcessResult | "fallback"> {
  const cancel = new AbortController();
  const onAbort = () => cancel.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let group: { release(): void } | null = null;
  try {
    const r = await threads.run(
      { argv, cwd, options: threadOptions(options) },
      {
        started: (pid) => {
          group = registerGroup(options.supervisor, pid, onAbort);
        },
      },
      cancel.signal,
      startThread,
    );
    return r === "fallback" ? r : cancelledFirst(r, cancel.signal.aborted);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    (group as { release(): void } | null)?.release();
  }
}

/** A killAll on this thread cancels the group and signals it at once; the cancel reaches the
 *  worker a message later, when its child may already have died of that signal. On this thread
 *  the cancel came first (runProcess's GroupTermination: the first cause wins), so the child
 *  killed by a signal after it was cancelled here ended "cancelled", as it does there. */
function cancelledFirst(r: ProcessResult, cancelled: boolean): ProcessResult {
  return cancelled && r.terminationReason === "exit" && r.signal !== null ? { ...r, terminationReason: "cancelled" } : r;
}

/** The data of the options (structured clone carries no function, no signal, no supervisor). */
function threadOptions(o: ProcessOptions): ThreadOptions {
  const all: Partial<Record<(typeof THREAD_OPTION_KEYS)[number], unknown>> = {};
  for (const k of THREAD_OPTION_KEYS) if (o[k] !== undefined) all[k] = o[k];
  return all as ThreadOptions;
}
