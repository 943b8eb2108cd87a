// `vouch workers URL` (an executor's, redis://...): the live workers (their
// heartbeats) and the jobs waiting and running on the queue.
import { EXIT, UsageError } from "../engine/errors.ts";
import { sanitize } from "../tui/text.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./io.ts";

const workersCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("workers", args, { json: { type: "boolean" } } as const);
  if (positionals.length !== 1)
    throw new UsageError("workers takes one executor URL", "usage: vouch workers redis://HOST:PORT[/DB] [--json]");
  const { executorEndpoint } = await import("../executor/registry.ts");
  const fleet = await (await executorEndpoint(positionals[0]!, "workers", io.env, io.cwd)).fleet();
  if (values.json) {
    io.out(`${JSON.stringify(fleet)}\n`);
    return EXIT.passed;
  }
  io.out(`jobs: ${fleet.jobs.waiting} waiting, ${fleet.jobs.active} running\n`);
  if (fleet.workers.length === 0) io.out("no live workers\n");
  for (const w of fleet.workers)
    io.out(sanitize(`${w.name}  pid ${w.pid}  ${w.running.length}/${w.concurrency} running  since ${w.started}\n`));
  return EXIT.passed;
};
export default workersCommand;
