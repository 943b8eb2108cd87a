// `notify:` (ADR 0064): whom to tell, and on which events, while a run goes on —
// a program of the user's (argv, static: the event JSON on its stdin, never on
// its command line) or a URL the event JSON is POSTed to. Telling never changes
// a verdict: a notifier is given a bounded time, and its failure is one warning.
import { z } from "zod";
import { DURATION_PATTERN, formatDuration, parseDuration } from "./duration.ts";
import { ENV_NAME_PATTERN } from "./env-name.ts";
import { DEFAULT_NOTIFY_EVENTS, NOTIFY_EVENTS, NOTIFY_TIMEOUT_CEILING_MS, NOTIFY_URL_PATTERN } from "./notify-constants.ts";

export {
  DEFAULT_NOTIFY_EVENTS,
  NOTIFY_EVENTS,
  NOTIFY_TIMEOUT_CEILING_MS,
  NOTIFY_TIMEOUT_DEFAULT_MS,
  NOTIFY_URL_PATTERN,
} from "./notify-constants.ts";
export type { NotifyEvent } from "./notify-constants.ts";

const timeout = z
  .string()
  .regex(new RegExp(DURATION_PATTERN), { message: 'a duration needs a unit, like "5s" or "30s"' })
  .transform((text) => parseDuration(text)!)
  .refine((ms) => ms > 0 && ms <= NOTIFY_TIMEOUT_CEILING_MS, {
    message: `a notify timeout is greater than zero and at most ${formatDuration(NOTIFY_TIMEOUT_CEILING_MS)}`,
  });

export const notifierSchema = z
  .strictObject({
    on: z
      .array(z.enum(NOTIFY_EVENTS))
      .min(1)
      .optional()
      .meta({ description: `The events to tell of (default: ${DEFAULT_NOTIFY_EVENTS.join(", ")}).` }),
    argv: z
      .array(z.string())
      .min(1, { message: "argv needs a program" })
      .optional()
      .meta({ description: "A program and its arguments, run with the event as JSON on stdin. Static: a template is refused." }),
    url: z
      .string()
      .regex(NOTIFY_URL_PATTERN, { message: "url is an http:// or https:// URL (no template, no spaces)" })
      .optional()
      .meta({ description: "POST the event as JSON (Content-Type: application/json) to this URL." }),
    url_env: z.string().regex(new RegExp(ENV_NAME_PATTERN), { message: "url_env names an environment variable" }).optional().meta({
      description: "POST to the URL this environment variable holds when the run starts (a webhook's secret stays out of the graph).",
    }),
    env: z
      .array(z.string().regex(new RegExp(ENV_NAME_PATTERN), { message: "an env entry names an environment variable" }))
      .optional()
      .meta({
        description:
          "argv: names of environment variables the program is given besides the allowlist (names only; never values in the ledger).",
      }),
    timeout: timeout.optional().meta({ description: `How long one notification may take (default 10s, at most 1m).` }),
  })
  .meta({ description: "One notifier: exactly one of argv, url, url_env." });

export type Notifier = z.output<typeof notifierSchema>;
