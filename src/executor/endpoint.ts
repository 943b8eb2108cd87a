// What one executor transport gives the command line (ADR 0037). A transport is a
// folder of src/executor/ registered by URL scheme in registry.ts; given a URL it
// answers an ExecutorEndpoint, and the commands use nothing else of it: `vouch run
// --executor` opens the coordinator's side, `vouch worker` serves a WorkerHost,
// `vouch workers` lists the fleet.
import type { BranchExecutor } from "../engine/ports.ts";
import type { FleetKey } from "./fleet-key.ts";
import type { FleetView } from "./heartbeat.ts";
import type { WorkerHost } from "./worker-host.ts";

export interface ServeOptions {
  /** How many jobs the worker runs at once. */
  concurrency: number;
  /** A worker silent this long is taken for dead and its jobs given to others. */
  lockMs: number;
  log(line: string): void;
  /** Told at each heartbeat whether the worker is ready (connected, not stopping): the health file. */
  health?(ready: boolean): void;
}

/** The coordinator's side (ADR 0045, 0046). */
export interface OpenOptions {
  /** Seals every job and opens every message. */
  key: FleetKey;
  /** A line for the person running vouch (stderr): what the executor waits for, a connection lost and back. */
  notice(line: string): void;
  /** Live jobs and no progress this long: say what is waited for (and again each time as long). */
  quietMs: number;
  /** A connection down this long ends the run `error` (reason executor); shorter outages are ridden out. */
  reconnectMs: number;
}

/** A serving worker; stop() is false when the transport could not be reached to hand jobs back. */
export interface WorkerService {
  stop(): Promise<boolean>;
}

export interface ExecutorEndpoint {
  /** The URL to show and record (run.started): never a password. */
  readonly display: string;
  /** The coordinator's side, connected: exit 2 when nothing answers, before the run starts. */
  open(o: OpenOptions): Promise<BranchExecutor>;
  /** The worker's side: takes jobs for `host` until stopped. */
  serve(host: WorkerHost, o: ServeOptions): Promise<WorkerService>;
  fleet(): Promise<FleetView>;
}

/** Checks a URL of the transport's scheme (a UsageError naming `flag` when it is malformed, or
 *  when it holds a password: that comes from `env`, ADR 0045). */
export type ExecutorTransport = (url: string, flag: string, env: Record<string, string | undefined>, cwd: string) => ExecutorEndpoint;

/** A URL as a message may quote it: a user part holding a ":" (a password, up to the last
 *  "@") is cut out, so a refusal never echoes what it refuses. */
export function shownUrl(text: string): string {
  const m = /^([^/]*\/\/)(.*)@/.exec(text);
  return JSON.stringify(m && m[2]!.includes(":") ? `${m[1]}***@${text.slice(m[0].length)}` : text);
}
