// What `notify:` (ADR 0064) names, without zod (ADR 0083): notify-schema.ts builds the
// schema from these, and the fast graph check (schema-fast.ts) reads them here.
/** What a notifier can be told of. */
export const NOTIFY_EVENTS = ["approval_waiting", "limit_paused", "run_finished", "run_failed", "run_errored"] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
/** `on:` left out: a person is needed (approval, usage limit), and the run's end. */
export const DEFAULT_NOTIFY_EVENTS: readonly NotifyEvent[] = ["approval_waiting", "limit_paused", "run_finished"];
export const NOTIFY_TIMEOUT_DEFAULT_MS = 10_000;
export const NOTIFY_TIMEOUT_CEILING_MS = 60_000;
/** A notifier's url: http(s), no template, no spaces. */
export const NOTIFY_URL_PATTERN = /^https?:\/\/[^\s{}]+$/;
