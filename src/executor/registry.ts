// Executors by URL scheme (ADR 0037): the graph's `executor:` and --executor name one
// by their scheme. A new transport is a folder of src/executor/ and one line here;
// the type is keyed by the engine's scheme list (src/engine/graph/executor-url.ts),
// so the compiler holds the two equal. Each entry loads its transport only when used.
import { UsageError } from "../engine/errors.ts";
import { isExecutorScheme, unknownExecutorScheme, type ExecutorScheme } from "../engine/graph/executor-url.ts";
import { shownUrl, type ExecutorEndpoint, type ExecutorTransport } from "./endpoint.ts";

const redis = () => import("./redis/endpoint.ts").then((m) => m.redisTransport);

export const EXECUTORS: Record<ExecutorScheme, () => Promise<ExecutorTransport>> = {
  redis,
  rediss: redis,
};

const HINT = "write it as SCHEME://… with a scheme vouch knows, e.g. redis://HOST:PORT[/DB] (rediss:// for TLS)";

/** The scheme of a URL as given on the command line (any case: a URL's scheme is
 *  case-insensitive), or why there is none. */
function schemeOf(text: string, flag: string): ExecutorScheme {
  let scheme: string;
  try {
    scheme = new URL(text).protocol.slice(0, -1);
  } catch {
    throw new UsageError(`${flag} ${shownUrl(text)}: not a URL`, HINT);
  }
  if (!isExecutorScheme(scheme)) throw new UsageError(`${flag} ${shownUrl(text)}: ${unknownExecutorScheme(scheme)}`, HINT);
  return scheme;
}

/** The executor a URL names, its URL checked by its transport (a UsageError naming `flag`
 *  otherwise); `env` and `cwd` give the transport its secrets (a password, ADR 0045). */
export async function executorEndpoint(
  text: string,
  flag: string,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<ExecutorEndpoint> {
  const transport = await EXECUTORS[schemeOf(text, flag)]();
  return transport(text, flag, env, cwd);
}
