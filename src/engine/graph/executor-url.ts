// The graph's `executor:` and --executor are URLs whose scheme picks the transport
// that runs map branches (ADR 0037). The schemes are named here, for the schema;
// src/executor/registry.ts has one entry per scheme, and its type is keyed by
// ExecutorScheme, so the compiler holds the two lists equal.
import { listOr, suggest } from "./did-you-mean.ts";

export const EXECUTOR_SCHEMES = ["redis", "rediss"] as const;
export type ExecutorScheme = (typeof EXECUTOR_SCHEMES)[number];

/** What the schema accepts as written in a graph (JSON Schema editors check it too). */
export const EXECUTOR_URL_PATTERN = new RegExp(`^(${EXECUTOR_SCHEMES.join("|")}):\\/\\/`);

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const KNOWN = listOr(EXECUTOR_SCHEMES.map((s) => `${s}://`));

export function isExecutorScheme(scheme: string): scheme is ExecutorScheme {
  return (EXECUTOR_SCHEMES as readonly string[]).includes(scheme);
}

/** Why `scheme` names no executor: a close one suggested, the known ones listed. */
export function unknownExecutorScheme(scheme: string): string {
  const close = suggest(scheme, EXECUTOR_SCHEMES);
  const shown = scheme.length > 40 ? `${scheme.slice(0, 40)}…` : scheme;
  return `the scheme "${shown}" names no executor vouch knows${close === undefined ? "" : ` (did you mean ${close}?)`}: use ${KNOWN}`;
}

/** What is wrong with a graph's `executor:` value, or null when its scheme is known
 *  (the transport checks the rest of the URL when the run starts). */
export function executorUrlProblem(text: string): string | null {
  if (EXECUTOR_URL_PATTERN.test(text)) return null;
  const m = SCHEME.exec(text);
  if (!m) return `executor must be a URL, SCHEME://… (${KNOWN}; e.g. redis://HOST:PORT[/DB])`;
  return `executor: ${unknownExecutorScheme(m[1]!)}`;
}
