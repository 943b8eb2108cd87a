// What one executor transport gives the command line (ADR 0037). A transport is a
// folder of src/executor/ registered by URL scheme in registry.ts; given a URL it
// answers an ExecutorEndpoint, and the commands use nothing else of it: `vouch run
// --executor` opens the coordinator's side, `vouch worker` serves a WorkerHost,
// `vouch workers` lists the fleet.
import type { BranchExecutor } from "../engine/ports.ts";
import type { FleetView } from "./heartbeat.ts";
import type { WorkerHost } from "./worker-host.ts";

export interface ServeOptions {
  /** How many jobs the worker runs at once. */
  concurrency: number;
  /** A worker silent this long is taken for dead and its jobs given to others. */
  lockMs: number;
  log(line: string): void;
}

/** A serving worker; stop() is false when the transport could not be reached to hand jobs back. */
export interface WorkerService {
  stop(): Promise<boolean>;
}

export interface ExecutorEndpoint {
  /** The URL to show and record (run.started): never a password. */
  readonly display: string;
  /** The URL holds a password (`vouch export k8s` refuses to print one). */
  readonly hasPassword: boolean;
  /** The coordinator's side, connected: exit 2 when nothing answers, before the run starts. */
  open(): Promise<BranchExecutor>;
  /** The worker's side: takes jobs for `host` until stopped. */
  serve(host: WorkerHost, o: ServeOptions): Promise<WorkerService>;
  fleet(): Promise<FleetView>;
}

/** Checks a URL of the transport's scheme (a UsageError naming `flag` when it is malformed). */
export type ExecutorTransport = (url: string, flag: string) => ExecutorEndpoint;
