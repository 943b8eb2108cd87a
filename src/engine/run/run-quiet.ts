// When no live work can go on (ADR 0022): what is left is parked on usage
// limits (wait for the soonest reset under --wait-limits, or pause), waits on
// approvals (pause), or the scheduler is stuck (a bug, named as one). The
// driver calls this; it ends the run only through `pause`.
import type { RunContext } from "./context.ts";
import { DEFAULT_MAX_WAIT_MS, decideLimits, type LimitDecision } from "./limit-wait.ts";
import { resetIso } from "./limited-attempt.ts";
import type { RunOptions } from "./types.ts";

type PauseDecision = Extract<LimitDecision, { kind: "pause" }>;

export class QuietRun {
  constructor(
    private readonly ctx: RunContext,
    private readonly options: Pick<RunOptions, "waitLimits" | "maxWaitMs">,
    /** Ends the run paused, for this reason ("approval" or "rate_limited"). */
    private readonly finishPaused: (reason: string) => void,
  ) {}

  /** The run went quiet and is not finishing. */
  handle(): void {
    const { ctx } = this;
    if (ctx.stop === null && ctx.usageLimits.parkedCount > 0) return this.onLimited();
    if (ctx.paused.size > 0 && ctx.stop === null) return this.pause();
    ctx.fail(new Error("internal: the run has no live work but is not finished (a scheduling bug)"));
  }

  /** Only limited work is left: wait for the soonest reset (--wait-limits), or pause. */
  private onLimited(): void {
    const { ctx, options } = this;
    const policy = { wait: options.waitLimits === true, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS };
    const d = decideLimits(ctx.usageLimits.states(), ctx.clock.now(), ctx.usageLimits.waitedMs, policy);
    if (d === null) return ctx.fail(new Error("internal: attempts are parked on a limit no harness has (a scheduling bug)"));
    if (d.kind === "pause") return this.pause(d);
    this.waitForLimit(d);
  }

  /** run.waiting, then sleep to the reset on the run's clock. The wait is live work (the run is
   *  not quiet meanwhile); a stop (Ctrl-C, the run wall cap) ends it and the parked attempts. */
  private waitForLimit(d: Extract<LimitDecision, { kind: "wait" }>): void {
    const { ctx } = this;
    ctx.begin();
    try {
      const until = new Date(ctx.clock.now() + d.waitMs).toISOString();
      ctx.emitter.emit({
        type: "run.waiting",
        reason: "rate_limited",
        harness: d.harness,
        resets_at: resetIso(d.resetsAt),
        wait_ms: d.waitMs,
        until,
      });
    } catch (e) {
      ctx.end();
      return ctx.fail(e);
    }
    ctx.clock
      .sleep(d.waitMs, ctx.signal)
      .then(
        () => {
          ctx.usageLimits.waitedMs += d.waitMs;
          ctx.usageLimits.lift(d.harness);
        },
        () => {},
      )
      .finally(() => ctx.end());
  }

  /** run.paused and the paused finish. Called as the last live task ends (from a promise's
   *  finally, with no caller to throw to): the ledger failing here ends the run as anywhere else. */
  private pause(limit?: PauseDecision): void {
    const { ctx } = this;
    try {
      const approvals = [...ctx.paused].map((p) => ({
        node: p.node,
        ...(p.branch ? { branch: p.branch } : {}),
        ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
      }));
      if (!limit) {
        ctx.emitter.emit({ type: "run.paused", reason: "approval", approvals });
        ctx.counts.paused = approvals.length;
        return this.finishPaused("approval");
      }
      const resets = new Map(ctx.usageLimits.states().map((s) => [s.harness, resetIso(s.resetsAt)]));
      const limited = ctx.usageLimits.parkedAttempts().map((p) => ({ ...p, resets_at: resets.get(p.harness) ?? null }));
      // Every node the run holds is counted once, whether an approval or a limit holds it.
      const held = new Set([...approvals, ...limited].map((p) => `${p.node}\0${p.branch ? `${p.branch.map}#${p.branch.index}` : ""}`));
      ctx.counts.paused = held.size;
      ctx.emitter.emit({
        type: "run.paused",
        reason: "rate_limited",
        harness: limit.harness,
        resets_at: resetIso(limit.resetsAt),
        approvals,
        limited,
      });
      this.finishPaused("rate_limited");
    } catch (e) {
      ctx.fail(e);
    }
  }
}
