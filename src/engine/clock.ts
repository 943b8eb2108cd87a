// The real Clock port: wall time and abortable timers. Tests use a virtual clock.
import type { Clock } from "./ports.ts";

/** setTimeout fires after 1 ms when given more than this: longer waits are chained. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const due = Date.now() + Math.max(0, ms);
      let timer: ReturnType<typeof setTimeout>;
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const arm = (left: number) => {
        timer = setTimeout(
          () => {
            const rest = due - Date.now();
            if (rest > 0) return arm(rest);
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
          Math.min(Math.max(0, left), MAX_TIMER_MS),
        );
      };
      arm(due - Date.now());
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
