// `vouch worker URL [--concurrency N] [--name NAME] [--workdir DIR]`, URL an executor's
// (redis://HOST:PORT[/DB]): runs map branches other machines' `vouch run --executor`
// dispatch (docs/scale-out.md).
import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { EXIT, UsageError } from "../engine/errors.ts";
import { parseCommandArgs, positiveInt } from "./args.ts";
import type { Command } from "./io.ts";

const OPTIONS = {
  concurrency: { type: "string" },
  name: { type: "string" },
  workdir: { type: "string" },
} as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
/** BullMQ's default lock is 30 s; VOUCH_WORKER_LOCK_MS shortens it (tests, fast failover). */
const DEFAULT_LOCK_MS = 30_000;

function lockMs(env: Record<string, string | undefined>): number {
  const v = env.VOUCH_WORKER_LOCK_MS;
  if (v === undefined || v === "") return DEFAULT_LOCK_MS;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1000) throw new UsageError(`VOUCH_WORKER_LOCK_MS="${v}": a whole number of milliseconds, at least 1000`);
  return n;
}

const workerCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("worker", args, OPTIONS);
  if (positionals.length !== 1)
    throw new UsageError(
      "worker takes one executor URL",
      "usage: vouch worker redis://HOST:PORT[/DB] [--concurrency N] [--name NAME] [--workdir DIR]",
    );
  const { executorEndpoint } = await import("../executor/registry.ts");
  const endpoint = await executorEndpoint(positionals[0]!, "worker");
  const concurrency = positiveInt("--concurrency", values.concurrency) ?? 1;
  const name = values.name ?? `${hostname()}:${process.pid}`;
  if (!NAME.test(name)) throw new UsageError(`--name ${JSON.stringify(name)}: letters, digits and . _ : - only (at most 100)`);
  let workdir: string | undefined;
  if (values.workdir !== undefined) {
    workdir = resolve(io.cwd, values.workdir);
    if (!existsSync(workdir) || !statSync(workdir).isDirectory()) throw new UsageError(`--workdir ${values.workdir}: no such folder`);
  }
  const serve = { concurrency, lockMs: lockMs(io.env), log: (l: string) => io.err(`${l}\n`) };
  // The host runs the jobs, the same for every executor; the endpoint's transport brings them.
  const { WorkerHost } = await import("../executor/worker-host.ts");
  const worker = await endpoint.serve(new WorkerHost({ name, env: { ...io.env }, ...(workdir ? { workdir } : {}) }), serve);
  // Runs until SIGTERM / SIGINT: then takes nothing new and hands running jobs back.
  const reached = await new Promise<boolean>((done) => {
    const stop = (sig: string) => {
      io.err(`vouch worker ${name}: ${sig}: taking no new jobs, handing running ones back\n`);
      void worker.stop().then(done, () => done(false));
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  // Redis down: the stop killed every process and waited for nothing, but the timers
  // of BullMQ's cut-short close would keep this process alive for ever. End it here.
  if (!reached) await exitAfterStderr(EXIT.passed);
  return EXIT.passed;
};
/** process.exit once what was written to stderr is out (a pipe may still hold it). */
async function exitAfterStderr(code: number): Promise<never> {
  await new Promise<void>((resolve) => process.stderr.write("", () => resolve()));
  process.exit(code);
}

export default workerCommand;
