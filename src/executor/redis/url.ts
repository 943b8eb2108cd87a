// `redis://HOST:PORT[/DB]` as the user writes it for --executor, `vouch worker`,
// `vouch workers` and `vouch export k8s`: checked here, once, with a clear message.
// A URL never holds the password (ADR 0045): a command line is shown by `ps` to every
// user of the machine, and a graph file is committed. It comes from VOUCH_REDIS_PASSWORD
// or the file VOUCH_REDIS_PASSWORD_FILE names.
import { UsageError } from "../../engine/errors.ts";
import { shownUrl } from "../endpoint.ts";

export interface RedisTarget {
  /** What ioredis is given: never a password (that is `password`). */
  url: string;
  /** The URL to show and record. */
  display: string;
  host: string;
  port: number;
  db: number;
  /** From the environment or a file, never from the URL. */
  password?: string;
}

const HINT = "write it as redis://HOST:PORT or redis://HOST:PORT/DB (rediss:// for TLS)";
export const PASSWORD_HINT =
  "give the password in the environment instead: VOUCH_REDIS_PASSWORD=..., or VOUCH_REDIS_PASSWORD_FILE=FILE naming a file that holds it (a user name may stay in the URL: redis://USER@HOST:PORT)";

export function parseRedisUrl(text: string, flag: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`${flag} ${shownUrl(text)}: not a Redis URL`, HINT);
  }
  if (u.password !== "")
    throw new UsageError(`${flag} ${shownUrl(text)}: the URL holds a password, which \`ps\` would show`, PASSWORD_HINT);
  if (u.protocol !== "redis:" && u.protocol !== "rediss:")
    throw new UsageError(`${flag} ${shownUrl(text)}: the scheme must be redis:// or rediss://`, HINT);
  if (u.hostname === "") throw new UsageError(`${flag} ${shownUrl(text)}: the URL names no host`, HINT);
  const port = u.port === "" ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,2}$/.test(path))
    throw new UsageError(`${flag} ${shownUrl(text)}: the database after "/" must be a number (0-15 on a default Redis)`, HINT);
  if (u.search !== "" || u.hash !== "") throw new UsageError(`${flag} ${shownUrl(text)}: a Redis URL takes no ?query or #fragment`, HINT);
  const db = path === "" ? 0 : Number(path);
  const display = `${u.protocol}//${u.username ? `${u.username}@` : ""}${u.host}${path === "" ? "" : `/${db}`}`;
  return { url: u.href, display, host: u.hostname, port, db };
}
