// Workers and a coordinator as real processes of the compiled binary, for the
// scale-out suite: each worker is started, watched and killed by its pid.
import { spawnSync, type Subprocess } from "bun";
import { afterAll, beforeAll } from "vitest";
import { join } from "node:path";
import { BINARY, cleanEnv, ensureBinary, parseNdjson, ROOT } from "../e2e/helpers.ts";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { RedisServer, type RedisOptions } from "./redis-server.ts";

/** git with a fixed identity, main as the first branch and no system or user config; throws on a non-zero exit. */
export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" },
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** The events of one type, typed as such. */
export const of = <T extends VouchEvent["type"]>(events: VouchEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

/** In a describe block: the binary built and one redis-server for the block, stopped after it. Call the getter in a test, not at collection. */
export function useRedis(options: RedisOptions = {}): () => RedisServer {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    await ensureBinary();
    redis = await RedisServer.start(options);
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return () => {
    if (!redis) throw new Error("no redis-server: useRedis() is read before its beforeAll ran");
    return redis;
  };
}

/** Sends SIGTERM to every worker, waits for them all to end and empties the list. */
export async function stopAll(workers: WorkerProc[]): Promise<void> {
  await Promise.all(workers.splice(0).map((w) => w.term()));
}

/** Short locks: a killed worker's jobs go to another within a few seconds. */
export const LOCK_ENV = { VOUCH_WORKER_LOCK_MS: "2000" };

/** The fleet key every coordinator and worker of the suite holds (ADR 0045). */
export const FLEET_KEY = "test-fleet-key-6b1f0c9e2d7a4b38a5c1e0f9d2b7c4a1";
export const FLEET_ENV = { VOUCH_FLEET_KEY: FLEET_KEY };

/** How `vouch` is started: the compiled binary, or (a worker of another version) the source. */
export const FROM_SOURCE = [join(ROOT, "node_modules/.bin/bun"), join(ROOT, "src/cli.ts")];

export class WorkerProc {
  stderr = "";
  private constructor(
    readonly name: string,
    readonly proc: Subprocess<"ignore", "ignore", "pipe">,
  ) {}

  static async start(
    url: string,
    name: string,
    home: string,
    concurrency = 4,
    env: Record<string, string> = {},
    extra: string[] = [],
    command: string[] = [BINARY],
  ): Promise<WorkerProc> {
    const proc = Bun.spawn([...command, "worker", url, "--name", name, "--concurrency", String(concurrency), ...extra], {
      env: cleanEnv({ home, env: { ...LOCK_ENV, ...FLEET_ENV, ...env } }),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    const w = new WorkerProc(name, proc);
    const reader = proc.stderr.getReader();
    const decoder = new TextDecoder();
    // Ready when it says so; keep reading so its pipe never fills.
    await new Promise<void>((resolve, reject) => {
      const pump = async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return reject(new Error(`worker ${name} ended: ${w.stderr}`));
          w.stderr += decoder.decode(value);
          if (w.stderr.includes("taking branch jobs")) resolve();
        }
      };
      pump().catch(() => {});
    });
    return w;
  }

  kill9(): void {
    process.kill(this.proc.pid, "SIGKILL");
  }

  /** Resolves once the worker's stderr holds `text` (or rejects when it ends first). */
  async said(text: string): Promise<void> {
    while (!this.stderr.includes(text)) {
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) throw new Error(`worker ${this.name} ended: ${this.stderr}`);
      await Bun.sleep(20);
    }
  }

  async term(): Promise<number> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) process.kill(this.proc.pid, "SIGTERM");
    return this.proc.exited;
  }
}

/** A coordinator whose NDJSON is read as it comes, so a test can act on an event. */
export class Coordinator {
  out = "";
  err = "";
  private waiters: { pred: (e: VouchEvent[]) => boolean; resolve(): void }[] = [];
  readonly proc: Subprocess<"ignore", "pipe", "pipe">;
  private readonly reading: Promise<void>[];

  constructor(args: string[], home: string, cwd: string, env: Record<string, string> = {}) {
    this.proc = Bun.spawn([BINARY, ...args, "--json"], {
      cwd,
      env: cleanEnv({ home, env: { ...FLEET_ENV, ...env } }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.reading = [this.read(this.proc.stdout, (t) => (this.out += t)), this.read(this.proc.stderr, (t) => (this.err += t))];
  }

  private async read(stream: ReadableStream<Uint8Array>, add: (t: string) => void): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      add(decoder.decode(chunk));
      this.check();
    }
    this.check();
  }

  events(): VouchEvent[] {
    const complete = this.out.slice(0, this.out.lastIndexOf("\n") + 1);
    return parseNdjson(complete);
  }

  private check(): void {
    const evs = this.events();
    this.waiters = this.waiters.filter((w) => (w.pred(evs) ? (w.resolve(), false) : true));
  }

  /** Resolves when the events so far satisfy pred (or rejects when the process ends first). */
  until(pred: (e: VouchEvent[]) => boolean): Promise<void> {
    return Promise.race([
      new Promise<void>((resolve) => {
        this.waiters.push({ pred, resolve });
        this.check();
      }),
      this.proc.exited.then(() => {
        if (!pred(this.events())) throw new Error(`the coordinator ended first (exit ${this.proc.exitCode}): ${this.err}`);
      }),
    ]);
  }

  /** SIGKILL by pid when still running (a test's cleanup). */
  kill(): void {
    if (this.proc.exitCode === null && this.proc.signalCode === null) process.kill(this.proc.pid, "SIGKILL");
  }

  /** done(), or a thrown error (the coordinator killed) once `ms` passed: a hang fails the test instead of stalling it. */
  async doneWithin(ms: number): Promise<{ code: number; events: VouchEvent[] }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), ms)));
    const first = await Promise.race([this.proc.exited, hung]);
    clearTimeout(timer);
    if (first === "hung") {
      this.kill();
      await this.done();
      throw new Error(`the coordinator was still running after ${ms} ms; stderr: ${this.err}`);
    }
    return this.done();
  }

  async done(): Promise<{ code: number; events: VouchEvent[] }> {
    const code = await this.proc.exited;
    await Promise.all(this.reading);
    return { code, events: this.events() };
  }
}
