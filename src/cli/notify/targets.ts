// Whom a session tells (ADR 0064): the graph's `notify:` and the command line's
// `--notify TARGET` (`--notify-on EVENTS`), resolved once when the session starts.
// A url_env that is not set is said once and that notifier left out: telling is
// never a reason for a run not to start.
import { UsageError } from "../../engine/errors.ts";
import {
  DEFAULT_NOTIFY_EVENTS,
  NOTIFY_EVENTS,
  NOTIFY_TIMEOUT_DEFAULT_MS,
  type Notifier,
  type NotifyEvent,
} from "../../engine/graph/notify-schema.ts";

export type NotifyTarget =
  | { kind: "command"; argv: string[]; passEnv: string[]; on: ReadonlySet<NotifyEvent>; timeoutMs: number; label: string }
  | { kind: "http"; url: string; on: ReadonlySet<NotifyEvent>; timeoutMs: number; label: string };

/** A URL as warnings show it: its origin only (a webhook's path is often its secret). */
export function urlLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : "/…"}`;
  } catch {
    return "a URL";
  }
}

const HTTP = /^https?:\/\/\S+$/;

/** --notify-on a,b: every name one vouch tells of. */
export function notifyOnFlag(value: string | undefined): NotifyEvent[] {
  if (value === undefined) return [...DEFAULT_NOTIFY_EVENTS];
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const n of names)
    if (!(NOTIFY_EVENTS as readonly string[]).includes(n))
      throw new UsageError(`--notify-on ${n}: not an event vouch tells of (events: ${NOTIFY_EVENTS.join(", ")})`);
  if (names.length === 0) throw new UsageError("--notify-on needs at least one event", `events: ${NOTIFY_EVENTS.join(", ")}`);
  return names as NotifyEvent[];
}

/** --notify TARGET: an http(s) URL, else a program (its path, run with no arguments). */
export function flagTargets(targets: readonly string[] | undefined, on: readonly NotifyEvent[]): NotifyTarget[] {
  return (targets ?? []).map((t) => {
    if (t.trim() === "" || t.startsWith("-")) throw new UsageError(`--notify "${t}": give an https:// URL or the path of a program`);
    const set = new Set(on);
    if (HTTP.test(t)) return { kind: "http", url: t, on: set, timeoutMs: NOTIFY_TIMEOUT_DEFAULT_MS, label: urlLabel(t) };
    return { kind: "command", argv: [t], passEnv: [], on: set, timeoutMs: NOTIFY_TIMEOUT_DEFAULT_MS, label: t };
  });
}

/** The graph's notifiers; warn() is told (once each) of a url_env that is not set. */
export function graphTargets(
  notify: readonly Notifier[] | undefined,
  env: Record<string, string | undefined>,
  warn: (line: string) => void,
): NotifyTarget[] {
  const out: NotifyTarget[] = [];
  for (const n of notify ?? []) {
    const on = new Set(n.on ?? DEFAULT_NOTIFY_EVENTS);
    const timeoutMs = n.timeout ?? NOTIFY_TIMEOUT_DEFAULT_MS;
    if (n.argv) out.push({ kind: "command", argv: n.argv, passEnv: n.env ?? [], on, timeoutMs, label: n.argv[0]! });
    else if (n.url) out.push({ kind: "http", url: n.url, on, timeoutMs, label: urlLabel(n.url) });
    else if (n.url_env) {
      const url = Object.hasOwn(env, n.url_env) ? env[n.url_env] : undefined;
      if (url === undefined || !HTTP.test(url)) {
        warn(`vouch: notify: url_env ${n.url_env} is ${url === undefined ? "not set" : "not an http(s) URL"}: that notifier is left out\n`);
        continue;
      }
      out.push({ kind: "http", url, on, timeoutMs, label: `$${n.url_env}` });
    }
  }
  return out;
}
