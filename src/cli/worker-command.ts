// `vouch worker URL [--concurrency N] [--name NAME] [--workdir DIR] [--fleet-key-file FILE]
// [--health-file FILE]`, URL an executor's (redis://HOST:PORT[/DB]): runs map branches other
// machines' `vouch run --executor` dispatch (docs/scale-out.md). `vouch worker --probe
// live|ready --health-file FILE` answers a container's probe from that file.
import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { EXIT, UsageError } from "../engine/errors.ts";
import { parseCommandArgs, positiveInt } from "./args.ts";
import { envMs } from "./executor-option.ts";
import { version } from "./version.ts";
import type { Command } from "./io.ts";

const OPTIONS = {
  concurrency: { type: "string" },
  name: { type: "string" },
  workdir: { type: "string" },
  "fleet-key-file": { type: "string" },
  "health-file": { type: "string" },
  probe: { type: "string" },
} as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
/** BullMQ's default lock is 30 s; VOUCH_WORKER_LOCK_MS shortens it (tests, fast failover). */
const DEFAULT_LOCK_MS = 30_000;
const USAGE =
  "usage: vouch worker redis://HOST:PORT[/DB] [--concurrency N] [--name NAME] [--workdir DIR] [--fleet-key-file FILE] [--health-file FILE]";

const workerCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("worker", args, OPTIONS);
  if (values.probe !== undefined) {
    const { probeHealth } = await import("./worker-health.ts");
    return probeHealth(values.probe, values["health-file"], io);
  }
  if (positionals.length !== 1) throw new UsageError("worker takes one executor URL", USAGE);
  const { executorEndpoint } = await import("../executor/registry.ts");
  const endpoint = await executorEndpoint(positionals[0]!, "worker", io.env, io.cwd);
  const concurrency = positiveInt("--concurrency", values.concurrency) ?? 1;
  const name = values.name ?? `${hostname()}:${process.pid}`;
  if (!NAME.test(name)) throw new UsageError(`--name ${JSON.stringify(name)}: letters, digits and . _ : - only (at most 100)`);
  let workdir: string | undefined;
  if (values.workdir !== undefined) {
    workdir = resolve(io.cwd, values.workdir);
    if (!existsSync(workdir) || !statSync(workdir).isDirectory()) throw new UsageError(`--workdir ${values.workdir}: no such folder`);
  }
  const { FLEET_SECRET_VARS, fleetKeyFrom } = await import("../executor/fleet-key.ts");
  const key = fleetKeyFrom(io.env, io.cwd, values["fleet-key-file"], `vouch worker ${endpoint.display}`);
  const { healthWriter } = await import("./worker-health.ts");
  const health = values["health-file"] === undefined ? undefined : healthWriter(resolve(io.cwd, values["health-file"]));
  const log = (l: string) => io.err(`${l}\n`);
  const serve = { concurrency, lockMs: envMs(io.env, "VOUCH_WORKER_LOCK_MS", DEFAULT_LOCK_MS, 1000), log, ...(health ? { health } : {}) };
  // The branches' commands never see the fleet's own secrets, whatever a job's pass-env names.
  const env = { ...io.env };
  for (const n of FLEET_SECRET_VARS) delete env[n];
  // The host runs the jobs, the same for every executor; the endpoint's transport brings them.
  const { WorkerHost } = await import("../executor/worker-host.ts");
  const host = new WorkerHost({ name, env, key, version, reapOnDeath: true, log, ...(workdir ? { workdir } : {}) });
  const worker = await endpoint.serve(host, serve);
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
