// Handing process starts to threads (issue 29 item 1, ADR 0081). This file starts no process
// and no thread: src/spawn/process.ts does both (startSpawnThread makes each worker, which runs
// that file's start-and-supervise stage, spawn-thread-entry.ts), so the one file that starts
// processes stays the one file. A start holds the JavaScript thread until the child has exec'd,
// so a map's starts and the engine's own work ran in series: a process whose output nobody
// streams line by line (a script node, a check) can be handed to one of a few workers instead.
// What stays here, on the engine's thread: the resolve stage (bubblewrap's command line is built
// before the request), the write-ahead barrier (run before the request is posted), the process
// registry (the worker posts the pid at once; a group is registered here and killed from here,
// by its pgid, on a shutdown), the cancel (posted to the worker, whose GroupTermination stops the
// group as on this thread) and the result. A worker that cannot start is no error: its requests
// run on this thread instead ("fallback").
import type { ProcessSupervisor } from "../process-registry.ts";
import type { ProcessResult } from "../process-types.ts";
import { notStarted } from "./resolve.ts";
import {
  EXITING,
  FIRST_SLOT,
  PID_SLOTS,
  SPAWNING,
  type ThreadReply,
  type ThreadRequest,
  type ThreadSlots,
  type ThreadStarter,
} from "./spawn-thread-protocol.ts";

/** Two: the prototype (bench/spawn-worker.ts) measured 1, 2 and 4 within noise of each other. */
export const DEFAULT_SPAWN_THREADS = 2;
/** The worker's file: beside this one in the source tree; in a compiled binary, where build.ts's
 *  second entrypoint lands (its path under src/, as .js, in the binary's own file system). */
const ENTRY = import.meta.url.includes("/$bunfs/")
  ? new URL("./spawn/process/spawn-thread-entry.js", "file:///$bunfs/root/").href
  : new URL("./spawn-thread-entry.ts", import.meta.url).href;

/** What a request is told back on the engine's thread. */
export interface ThreadHooks {
  /** The child exists (its pid leads its group): register it, so it can be killed from here. */
  started(pid: number): void;
}

/** Messages across the boundary: per command one request out, the pid and the result back. */
interface MessageCounts {
  posted: number;
  received: number;
}

interface Pending {
  hooks: ThreadHooks;
  pid: number | null;
  slot: number;
  resolve(r: ProcessResult | "fallback"): void;
}

class Thread {
  readonly worker: Worker;
  dead = false;
  readonly pending = new Map<number, Pending>();

  constructor(
    worker: Worker,
    private readonly counts: MessageCounts,
    onDeath: (t: Thread, message: string) => void,
    slots: SharedArrayBuffer,
  ) {
    this.worker = worker;
    this.worker.unref();
    this.worker.postMessage({ kind: "slots", buffer: slots } satisfies ThreadSlots);
    this.worker.addEventListener("message", (e: MessageEvent<ThreadReply>) => this.reply(e.data));
    this.worker.addEventListener("error", (e) => onDeath(this, (e as ErrorEvent).message ?? "the worker failed"));
    this.worker.addEventListener("close", () => onDeath(this, "the worker ended"));
  }

  private reply(m: ThreadReply): void {
    this.counts.received++;
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.kind === "started") {
      p.pid = m.pid;
      p.hooks.started(m.pid);
      return;
    }
    this.pending.delete(m.id);
    if (this.pending.size === 0) this.worker.unref();
    p.resolve(m.result);
  }

  /** The groups whose child exists (its pid is in its slot) but whose "started" message has not
   *  been read: in no registry yet, so killed here when vouch exits (killInFlight). */
  killInFlight(slots: Int32Array): void {
    for (const p of this.pending.values()) {
      if (p.pid !== null) continue;
      const pid = Atomics.load(slots, p.slot);
      if (pid <= 0) continue;
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
  }

  post(message: ThreadRequest | { kind: "cancel"; id: number }): void {
    this.counts.posted++;
    this.worker.postMessage(message);
  }
}

/** The pool a supervisor's processes start on, if it was given one (startOffThread). Kept beside
 *  the supervisor, not in it: the registry knows nothing of threads. */
const pools = new WeakMap<ProcessSupervisor, SpawnThreads>();

/** From now on, what `supervisor` owns and nobody streams starts on spawn workers (the session's choice). */
export function startOffThread(supervisor: ProcessSupervisor, threads = new SpawnThreads()): SpawnThreads {
  pools.set(supervisor, threads);
  return threads;
}

/** The supervisor's pool; undefined: its processes start on this thread. */
export function threadsOf(supervisor: ProcessSupervisor | undefined): SpawnThreads | undefined {
  return supervisor === undefined ? undefined : pools.get(supervisor);
}

/** A small pool of spawn workers, made on first use. One per session (startOffThread). */
export class SpawnThreads {
  private threads: Thread[] | null = null;
  private nextId = 0;
  /** Every request posted, every message answered: a count a test can bound. */
  readonly counts = { requests: 0, replies: 0, fallbacks: 0 };
  readonly messages: MessageCounts = { posted: 0, received: 0 };
  /** Shared with the workers: each request's pid as soon as its child exists (PID_SLOTS). */
  private readonly slots = new Int32Array(new SharedArrayBuffer(4 * (FIRST_SLOT + PID_SLOTS)));
  /** Whatever path ends vouch (a second Ctrl-C's process.exit, an uncaught error), a child whose
   *  pid message is still in flight dies with it: the supervisor's own exit hook cannot see it. */
  private readonly onExit = () => {
    const ctl = this.slots;
    Atomics.store(ctl, EXITING, 1);
    // A worker inside a start finishes it (a start returns in a few ms): then its pid is in its slot.
    for (let waits = 0; waits < 20; waits++) {
      const n = Atomics.load(ctl, SPAWNING);
      if (n <= 0) break;
      Atomics.wait(ctl, SPAWNING, n, 10);
    }
    for (const t of this.threads ?? []) t.killInFlight(ctl);
  };

  constructor(
    private readonly size = DEFAULT_SPAWN_THREADS,
    private readonly entry = ENTRY,
  ) {}

  /** True while at least one worker may take a request. */
  get usable(): boolean {
    return this.threads === null || this.threads.some((t) => !t.dead);
  }

  /**
   * Runs the request on a worker: "fallback" when none could take it (none started, or the one
   * it went to failed before it started the child), then the caller runs it on this thread.
   * @param cancel aborted: the worker stops the group as runProcess does (reason "cancelled")
   * @param startThread how a worker is started, on first use: process.ts's, the one file that
   *   starts processes and the threads that start them
   */
  run(
    request: Omit<ThreadRequest, "kind" | "id" | "slot">,
    hooks: ThreadHooks,
    cancel: AbortSignal | undefined,
    startThread: ThreadStarter,
  ): Promise<ProcessResult | "fallback"> {
    const thread = this.pick(startThread);
    if (thread === null) return Promise.resolve("fallback");
    const id = this.nextId++;
    const slot = FIRST_SLOT + (id % PID_SLOTS);
    Atomics.store(this.slots, slot, 0);
    this.counts.requests++;
    return new Promise((resolve) => {
      const done = (r: ProcessResult | "fallback") => {
        cancel?.removeEventListener("abort", onAbort);
        if (r === "fallback") this.counts.fallbacks++;
        else this.counts.replies++;
        resolve(r);
      };
      const onAbort = () => thread.post({ kind: "cancel", id });
      cancel?.addEventListener("abort", onAbort, { once: true });
      thread.pending.set(id, { hooks, pid: null, slot, resolve: done });
      thread.worker.ref();
      thread.post({ kind: "run", id, ...request, slot });
    });
  }

  /** Ends the workers (a session's end); what they still run was killed by the supervisor. */
  close(): void {
    for (const t of this.threads ?? []) t.worker.terminate();
    this.threads = [];
    process.off("exit", this.onExit);
  }

  private pick(startThread: ThreadStarter): Thread | null {
    if (this.threads === null) {
      this.threads = Array.from(
        { length: this.size },
        () => new Thread(startThread(this.entry), this.messages, (t, why) => this.died(t, why), this.slots.buffer as SharedArrayBuffer),
      );
      process.on("exit", this.onExit);
    }
    let best: Thread | null = null;
    for (const t of this.threads) if (!t.dead && (best === null || t.pending.size < best.pending.size)) best = t;
    return best;
  }

  /** A worker that failed: a request it had not begun to start runs on this thread; one it had
   *  begun (its slot says so, even when the "started" message was never read) is never started
   *  again: its group, if known, is killed (nothing of it left unwatched) and it ends as a failed start. */
  private died(t: Thread, why: string): void {
    if (t.dead) return;
    t.dead = true;
    t.worker.unref();
    for (const [id, p] of t.pending) {
      t.pending.delete(id);
      const pid = p.pid ?? Atomics.load(this.slots, p.slot); // -1: begun, pid not stored yet
      if (pid === 0) p.resolve("fallback");
      else {
        if (pid > 0) {
          try {
            process.kill(-pid, "SIGKILL");
          } catch {
            // gone already
          }
        }
        p.resolve(lostResult(pid > 0 ? pid : undefined, why));
      }
    }
  }
}

function lostResult(pid: number | undefined, why: string): ProcessResult {
  const killed = pid === undefined ? "" : "; its process group was killed";
  return { ...notStarted("spawn_failed", 0, `the thread that started it failed (${why})${killed}`), ...(pid === undefined ? {} : { pid }) };
}
