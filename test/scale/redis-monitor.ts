// Every command a real redis-server runs, as `redis-cli MONITOR` prints it: the client
// that sent it ("lua" for one a script called) and its arguments. A test starts it,
// waits for its OK (the server then reports every command), and stops it by its pid.
// (ioredis's own monitor() mistakes a printed command for a reply when other clients
// connect meanwhile: "Command queue state error".)
import type { Subprocess } from "bun";

export interface Seen {
  source: string;
  args: string[];
}

/** One MONITOR line: `1700000000.123 [0 127.0.0.1:5000] "xadd" "k" "*" ...`, null for anything else. */
export function parseMonitorLine(line: string): Seen | null {
  const head = /^\d+\.\d+ \[\d+ (\S+)\] /.exec(line);
  if (!head) return null;
  const args = [...line.slice(head[0].length).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, "$1"));
  return { source: head[1]!, args };
}

export class RedisMonitor {
  readonly seen: Seen[] = [];
  private waiters: { marker: string; resolve(): void }[] = [];
  private constructor(private readonly proc: Subprocess<"ignore", "pipe", "ignore">) {}

  /** Resolves once the monitor printed `ECHO marker` (send it after the commands to wait for:
   *  the server reports commands in the order it runs them, so all before it are in). */
  echoed(marker: string): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push({ marker, resolve });
      this.check();
    });
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      const found = this.seen.some((s) => s.args[0]?.toLowerCase() === "echo" && s.args[1] === w.marker);
      if (found) w.resolve();
      return !found;
    });
  }

  static async start(port: number): Promise<RedisMonitor> {
    const proc = Bun.spawn(["redis-cli", "-p", String(port), "MONITOR"], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    const m = new RedisMonitor(proc);
    await m.pump();
    return m;
  }

  /** Resolves at the server's OK; keeps reading after it. */
  private pump(): Promise<void> {
    return new Promise<void>((ready, failed) => {
      const decoder = new TextDecoder();
      let rest = "";
      const read = async () => {
        for await (const chunk of this.proc.stdout) {
          const lines = (rest + decoder.decode(chunk)).split("\n");
          rest = lines.pop()!;
          for (const line of lines) {
            if (line === "OK") ready();
            const seen = parseMonitorLine(line);
            if (seen) this.seen.push(seen);
          }
          this.check();
        }
        failed(new Error("redis-cli MONITOR ended"));
      };
      read().catch(failed);
    });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) process.kill(this.proc.pid, "SIGTERM");
    await this.proc.exited;
  }
}
