// Shared by the benchmarks: statistics over repeated measures, running a
// process while sampling its own peak RSS (VmHWM) and CPU time from /proc,
// and temporary folders.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const VOUCH = join(ROOT, "dist", "vouch");

// ---- statistics -----------------------------------------------------------

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(xs: number[]): Summary {
  if (xs.length === 0) throw new Error("no samples");
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]!, n: s.length };
}

/** Per-repetition ratios a[i] / b[i] (measured side by side), summarized. */
export function ratios(a: number[], b: number[]): Summary {
  return summarize(a.map((x, i) => x / b[i]!));
}

// ---- processes ------------------------------------------------------------

/** A size field of /proc/PID/status, in bytes; null once the process is gone. */
function statusBytes(pid: number, field: "VmHWM" | "VmRSS"): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** VmHWM (peak resident set) of a live process, in bytes; null once it is gone. */
export const peakRss = (pid: number): number | null => statusBytes(pid, "VmHWM");

/** VmRSS (the resident set now) of a live process, in bytes; null once it is gone. */
export const residentSet = (pid: number): number | null => statusBytes(pid, "VmRSS");

/** utime + stime of a live process (itself, not its children; with `reaped`, plus
 * the children it has waited for), in ms; null once it is gone. */
export function cpuMs(pid: number, reaped = false): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

export interface Measured {
  wallMs: number;
  exitCode: number;
  /** The process's own peak RSS (VmHWM, sampled every 10 ms until it exits). */
  peakRssBytes: number;
  /** CPU time of the process and the children it reaped (rusage of wait4). */
  cpuMs: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  /** Keep stdout (default: discarded). */
  keepStdout?: boolean;
}

/** Runs argv to its end, measuring wall time from spawn to exit, peak RSS and CPU. */
export async function measure(argv: string[], opts: RunOptions = {}): Promise<Measured> {
  const started = performance.now();
  const p = Bun.spawn(argv, {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: opts.keepStdout ? "pipe" : "ignore",
    stderr: "pipe",
  });
  let peak = 0;
  const sample = () => (peak = Math.max(peak, peakRss(p.pid) ?? 0));
  const timer = setInterval(sample, 10);
  sample();
  const [stdout, stderr, exitCode] = await Promise.all([
    opts.keepStdout ? new Response(p.stdout as ReadableStream).text() : Promise.resolve(""),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  const wallMs = performance.now() - started;
  clearInterval(timer);
  const usage = p.resourceUsage();
  const cpu = usage ? Number(usage.cpuTime.total) / 1000 : NaN;
  return { wallMs, exitCode, peakRssBytes: peak, cpuMs: cpu, stdout, stderr };
}

/** Throws with the command's stderr when it did not exit as expected. */
export function expectExit(m: Measured, code: number, what: string): Measured {
  if (m.exitCode !== code) throw new Error(`${what} exited ${m.exitCode}, expected ${code}:\n${m.stderr.slice(-2000)}`);
  return m;
}

// ---- folders --------------------------------------------------------------

export function tempFolder(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The environment vouch runs with in the benchmarks: a private ledger, nothing else inherited. */
export function vouchEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, VOUCH_HOME: join(home, "ledger"), ...extra };
}

export const MiB = 2 ** 20;
