// `redis://HOST:PORT[/DB]` as the user writes it for --executor, `vouch worker`,
// `vouch workers` and `vouch export k8s`: checked here, once, with a clear message.
import { UsageError } from "../../engine/errors.ts";

export interface RedisTarget {
  /** What ioredis is given (password included when the URL has one). */
  url: string;
  /** The URL to show and record: never a password. */
  display: string;
  host: string;
  port: number;
  db: number;
}

const HINT = "write it as redis://HOST:PORT or redis://HOST:PORT/DB (rediss:// for TLS)";

export function parseRedisUrl(text: string, flag: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`${flag} ${JSON.stringify(text)}: not a Redis URL`, HINT);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:")
    throw new UsageError(`${flag} ${JSON.stringify(text)}: the scheme must be redis:// or rediss://`, HINT);
  if (u.hostname === "") throw new UsageError(`${flag} ${JSON.stringify(text)}: the URL names no host`, HINT);
  const port = u.port === "" ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,2}$/.test(path))
    throw new UsageError(`${flag} ${JSON.stringify(text)}: the database after "/" must be a number (0-15 on a default Redis)`, HINT);
  if (u.search !== "" || u.hash !== "")
    throw new UsageError(`${flag} ${JSON.stringify(text)}: a Redis URL takes no ?query or #fragment`, HINT);
  const db = path === "" ? 0 : Number(path);
  const display = `${u.protocol}//${u.username ? `${u.username}@` : ""}${u.host}${path === "" ? "" : `/${db}`}`;
  return { url: u.href, display, host: u.hostname, port, db };
}
