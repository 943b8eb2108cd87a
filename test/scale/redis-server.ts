// A real redis-server for one test file: a free loopback port, a temporary
// folder, no persistence unless asked (`aof`: every write fsynced, so a restart
// keeps every key); stopped (and restarted) by its pid.
import { spawnSync, type Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const HAVE_REDIS = spawnSync(["sh", "-c", "command -v redis-server"]).exitCode === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RedisOptions {
  /** Append-only file, fsynced on every write: a restarted server has every key. */
  aof?: boolean;
  /** requirepass: clients must AUTH. */
  password?: string;
}

/** Resolves once the port takes a connection and answers PING (bounded: 200 tries). */
async function ready(port: number, password?: string): Promise<void> {
  const hello = password === undefined ? "PING\r\n" : `AUTH ${password}\r\nPING\r\n`;
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, "127.0.0.1");
      let got = "";
      c.once("error", () => resolve(false));
      c.once("connect", () => c.write(hello));
      c.on("data", (d) => {
        got += d.toString();
        if (got.includes("+PONG") || got.startsWith("-")) {
          c.destroy();
          resolve(got.includes("+PONG"));
        }
      });
    });
    if (ok) return;
    await Bun.sleep(25);
  }
  throw new Error(`redis-server on ${port} never answered`);
}

export class RedisServer {
  private proc: Subprocess | null = null;
  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly options: RedisOptions,
  ) {}

  static async start(options: RedisOptions = {}): Promise<RedisServer> {
    const r = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), "vouch-redis-")), options);
    await r.up();
    return r;
  }

  /** The server's pid while it is up (a benchmark reads its CPU time from /proc). */
  get pid(): number | null {
    return this.proc?.pid ?? null;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const persist = this.options.aof ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"];
    const auth = this.options.password === undefined ? [] : ["--requirepass", this.options.password];
    this.proc = Bun.spawn(
      ["redis-server", "--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--save", "", ...persist, ...auth],
      { stdout: "ignore", stderr: "ignore" },
    );
    await ready(this.port, this.options.password);
  }

  async ensureUp(): Promise<void> {
    if (!this.proc) await this.up();
  }

  /** SIGKILL by pid: Redis gone at once, as a crashed server is. */
  async down(): Promise<void> {
    const p = this.proc;
    if (!p) return;
    process.kill(p.pid, "SIGKILL");
    await p.exited;
    this.proc = null;
  }

  async stop(): Promise<void> {
    await this.down();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
