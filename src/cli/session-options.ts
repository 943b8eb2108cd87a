// The options `vouch run` and `vouch resume` share: how the session shows and
// reports the run, waits, notifies, seals and where its branches run. One home,
// so a new session option reaches both commands at once.
import { LIMIT_OPTIONS } from "./limit-flags.ts";
import { SANDBOX_OPTION } from "./sandbox-option.ts";

export const SESSION_OPTIONS = {
  json: { type: "boolean" },
  plain: { type: "boolean" },
  "replay-dir": { type: "string" },
  "replay-delay": { type: "string" },
  report: { type: "string", multiple: true },
  ...LIMIT_OPTIONS,
  executor: { type: "string" },
  "fleet-key-file": { type: "string" },
  "wait-approvals": { type: "boolean" },
  notify: { type: "string", multiple: true },
  "notify-on": { type: "string" },
  ...SANDBOX_OPTION,
} as const;
