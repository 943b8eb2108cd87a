// A spawn worker (spawn-threads.ts, ADR 0081): a Bun Worker that runs src/spawn/process.ts's
// start-and-supervise stage for the requests the engine's thread posts — the child starts here,
// its caps, its group's termination and the reading of its pipes run here — and posts the pid as
// soon as the child exists, then the result. A cancel message stops the group as an abort does.
// The barrier and the resolve stage ran on the engine's thread before the request was posted.
import { startAndSupervise } from "../process.ts";
import { ProcessSupervisor } from "../process-registry.ts";
import type { ProcessResult } from "../process-types.ts";
import { notStarted } from "./resolve.ts";
import { EXITING, SPAWNING, type ThreadReply, type ThreadRequest, type ThreadSlots } from "./spawn-thread-protocol.ts";

declare const self: Worker;
const cancels = new Map<number, AbortController>();
/** This worker's own record of its live groups (no barrier: that ran on the engine's thread);
 *  the engine's thread registers each group too, and kills it from there. */
const supervisor = new ProcessSupervisor();
/** The pool's pid slots (spawn-threads.ts): a pid stored here is seen by the engine's thread at
 *  once, even if vouch exits before the "started" message is read. */
let slots: Int32Array | null = null;

function post(reply: ThreadReply): void {
  self.postMessage(reply);
}

self.onmessage = (event: MessageEvent<ThreadRequest | ThreadSlots | { kind: "cancel"; id: number }>) => {
  const m = event.data;
  if (m.kind === "slots") {
    slots = new Int32Array(m.buffer);
    return;
  }
  if (m.kind === "cancel") {
    cancels.get(m.id)?.abort();
    return;
  }
  const abort = new AbortController();
  cancels.set(m.id, abort);
  // Synchronous up to the child's start and its abort listener: a cancel posted after this
  // request is handled after them, so it is never missed.
  // Counted while inside the start, and not started once vouch is exiting: its exit hook waits
  // for the count to reach 0, then kills every child the slots name (spawn-threads.ts).
  if (slots !== null) Atomics.add(slots, SPAWNING, 1);
  let running: Promise<ProcessResult>;
  try {
    if (slots !== null && Atomics.load(slots, EXITING) !== 0) running = Promise.resolve(notStarted("cancelled", 0));
    else {
      // -1: begun. A worker that ends from here on may have started the child before storing its
      // pid: the engine's thread must not start the command a second time (SpawnThreads.died).
      if (slots !== null) Atomics.store(slots, m.slot, -1);
      running = startAndSupervise(m.argv, m.cwd, { ...m.options, cwd: m.cwd, signal: abort.signal, supervisor }, (pid) => {
        if (slots !== null) Atomics.store(slots, m.slot, pid);
        post({ kind: "started", id: m.id, pid });
      });
    }
  } finally {
    if (slots !== null) {
      Atomics.sub(slots, SPAWNING, 1);
      Atomics.notify(slots, SPAWNING);
    }
  }
  void running.then(
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
