// A worker's health for a container's probes (docs/scale-out.md, Kubernetes), with no
// server: `vouch worker --health-file FILE` rewrites FILE at each heartbeat (every 2 s)
// with the time and whether the worker is ready (connected, not stopping), and
// `vouch worker --probe live|ready --health-file FILE` answers from it — exit 0 when
// healthy, 1 with the reason on stderr when not, 2 on a usage mistake.
//   live:  the file was written lately (the worker's event loop runs); a worker that
//          waits for Redis to come back is alive (restarting it would not help).
//   ready: live, and connected to the executor and taking jobs.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { EXIT, UsageError } from "../engine/errors.ts";
import type { CliIO } from "./io.ts";

/** A heartbeat older than this is a worker whose event loop is stuck (it beats every 2 s). */
export const STALE_MS = 30_000;

interface Health {
  at: string;
  pid: number;
  ready: boolean;
}

/** The worker's side: the file, rewritten whole (a rename: a probe never reads half of it). */
export function healthWriter(file: string): (ready: boolean) => void {
  return (ready) => {
    const h: Health = { at: new Date().toISOString(), pid: process.pid, ready };
    try {
      writeFileSync(`${file}.tmp`, `${JSON.stringify(h)}\n`, { mode: 0o644 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // A full or read-only disk: the probe reads an old file and says the worker is not live.
    }
  };
}

/** Why the worker is not healthy by `kind`, or null when it is. */
export function unhealthy(kind: "live" | "ready", text: string | null, now: number): string | null {
  if (text === null) return "no health file (has the worker started, with this --health-file?)";
  let h: Partial<Health> | null;
  try {
    h = JSON.parse(text) as Partial<Health> | null;
  } catch {
    return "the health file is not the worker's";
  }
  const at = h !== null && typeof h === "object" && typeof h.at === "string" ? Date.parse(h.at) : Number.NaN;
  if (!Number.isFinite(at)) return "the health file is not the worker's";
  const age = now - at;
  if (age > STALE_MS) return `the worker's last heartbeat is ${Math.round(age / 1000)} s old`;
  if (kind === "ready" && h!.ready !== true) return "the worker is not connected to its executor (or is stopping)";
  return null;
}

export function probeHealth(kind: string, file: string | undefined, io: CliIO): number {
  if (kind !== "live" && kind !== "ready") throw new UsageError(`--probe ${JSON.stringify(kind)}: live or ready`);
  if (file === undefined) throw new UsageError("--probe needs --health-file FILE: the file the worker writes");
  let text: string | null = null;
  try {
    text = readFileSync(resolve(io.cwd, file), "utf8");
  } catch {
    text = null;
  }
  const why = unhealthy(kind, text, Date.now());
  if (why === null) return EXIT.passed;
  io.err(`vouch worker: not ${kind}: ${why}\n`);
  return EXIT.failed;
}
