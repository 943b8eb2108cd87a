// How a notification reaches its target (ADR 0064): a program through the process
// seam (src/spawn/notify-command.ts), a URL by one POST — no redirect followed
// (a webhook that moved is a failure to say, not a place to resend the run's
// events), any 2xx is success, the request aborted at the timeout.
import { runNotifyCommand } from "../../spawn/notify-command.ts";
import type { Deliver } from "./notifications.ts";

export function realDeliver(cwd: string, parentEnv: Record<string, string | undefined>): Deliver {
  return async (target, payload) => {
    if (target.kind === "command")
      return runNotifyCommand({ argv: target.argv, payload, cwd, parentEnv, passEnv: target.passEnv, timeoutMs: target.timeoutMs });
    try {
      const r = await fetch(target.url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "vouch" },
        body: payload,
        redirect: "manual",
        signal: AbortSignal.timeout(target.timeoutMs),
      });
      await r.body?.cancel().catch(() => {});
      return r.status >= 200 && r.status < 300
        ? null
        : `the server answered ${r.status}${r.status >= 300 && r.status < 400 ? " (a redirect: not followed)" : ""}`;
    } catch (e) {
      const err = e as Error;
      if (err.name === "TimeoutError" || err.name === "AbortError") return `no answer within ${Math.round(target.timeoutMs / 100) / 10}s`;
      return err.message;
    }
  };
}
