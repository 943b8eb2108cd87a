// What the benchmarks ran on, and which commit they measured.
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { ROOT, type Summary } from "./measure.ts";
import { fmt } from "./table.ts";

export interface Machine {
  uname: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  bun: string;
  commit: string;
  date: string;
}

function sh(argv: string[]): string {
  const r = Bun.spawnSync(argv, { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "";
}

function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (m) return m[1]!.trim();
  } catch {
    // not Linux
  }
  return cpus()[0]?.model ?? "unknown";
}

/** The commit measured; "+ uncommitted changes" when the tree differs from it (results.md aside). */
export function commitMeasured(): string {
  const head = sh(["git", "rev-parse", "--short=12", "HEAD"]) || "unknown";
  const dirty = sh(["git", "status", "--porcelain", "--", ".", ":!bench/results.md"]);
  return dirty ? `${head} + uncommitted changes` : head;
}

export function describeMachine(): Machine {
  return {
    uname: sh(["uname", "-a"]),
    cpu: cpuModel(),
    cores: cpus().length,
    memoryGiB: totalmem() / 2 ** 30,
    bun: Bun.version,
    commit: commitMeasured(),
    date: new Date().toISOString(),
  };
}

export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

/** The one line a results table is read with: cores, CPU, load before and after, fork+exec cost. */
export function machineLine(m: Machine, loadBefore: string, loadAfter: string, forkXargs: Summary, forkPoolMs: number | null): string {
  const pool = forkPoolMs === null ? "" : `, ${fmt(forkPoolMs, "ms")} (C pool)`;
  return `Machine: ${m.cores} cores, ${m.cpu}; load average ${loadBefore} before, ${loadAfter} after; fork+exec ${fmt(forkXargs.median, "ms")} per process (xargs, 8 at once)${pool}; commit ${m.commit}.`;
}
