// A real redis-server for one test file: a free loopback port, a temporary
// folder, no persistence; stopped (and restarted) by its pid.
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

/** Resolves once the port takes a connection and answers PING (bounded: 200 tries). */
async function ready(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, "127.0.0.1");
      c.once("error", () => resolve(false));
      c.once("connect", () => c.write("PING\r\n"));
      c.once("data", (d) => {
        c.destroy();
        resolve(d.toString().startsWith("+PONG"));
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
  ) {}

  static async start(): Promise<RedisServer> {
    const r = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), "vouch-redis-")));
    await r.up();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    this.proc = Bun.spawn(
      ["redis-server", "--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--save", "", "--appendonly", "no"],
      { stdout: "ignore", stderr: "ignore" },
    );
    await ready(this.port);
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
