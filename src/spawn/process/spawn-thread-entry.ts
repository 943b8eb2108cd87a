// A spawn worker (spawn-threads.ts, ADR 0081): a Bun Worker that runs src/spawn/process.ts's
// start-and-supervise stage for the requests the engine's thread posts — the child starts here,
// its caps, its group's termination and the reading of its pipes run here — and posts the pid as
// soon as the child exists, then the result. A cancel message stops the group as an abort does.
// The barrier and the resolve stage ran on the engine's thread before the request was posted.
import { startAndSupervise } from "../process.ts";
import { ProcessSupervisor } from "../process-registry.ts";
import { notStarted } from "./resolve.ts";
import type { ThreadReply, ThreadRequest } from "./spawn-thread-protocol.ts";

declare const self: Worker;
const cancels = new Map<number, AbortController>();
/** This worker's own record of its live groups (no barrier: that ran on the engine's thread);
 *  the engine's thread registers each group too, and kills it from there. */
const supervisor = new ProcessSupervisor();

function post(reply: ThreadReply): void {
  self.postMessage(reply);
}

self.onmessage = (event: MessageEvent<ThreadRequest | { kind: "cancel"; id: number }>) => {
  const m = event.data;
  if (m.kind === "cancel") {
    cancels.get(m.id)?.abort();
    return;
  }
  const abort = new AbortController();
  cancels.set(m.id, abort);
  // Synchronous up to the child's start and its abort listener: a cancel posted after this
  // request is handled after them, so it is never missed.
  void startAndSupervise(m.argv, m.cwd, { ...m.options, cwd: m.cwd, signal: abort.signal, supervisor }, (pid) =>
    post({ kind: "started", id: m.id, pid }),
  ).then(
    (result) => {
      cancels.delete(m.id);
      post({ kind: "ended", id: m.id, result });
    },
    (e: unknown) => {
      cancels.delete(m.id);
      post({ kind: "ended", id: m.id, result: notStarted("spawn_failed", 0, `the spawn thread failed: ${(e as Error).message}`) });
    },
  );
};
