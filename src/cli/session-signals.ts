// A live session's signal handling: the first Ctrl-C (or SIGTERM, SIGHUP,
// SIGQUIT, or a closed stdout pipe) cancels the run, a second one exits at
// once; once the run is over, a signal only leaves the live UI's final frame.
import type { CliIO } from "./io.ts";
import { onStdoutClosed } from "./stdout-closed.ts";
import { CancelRequested } from "../engine/ports.ts";
import type { CancelRequest } from "../ledger/index.ts";
import { sanitize } from "../text/sanitize.ts";

/** The signals that cancel a live run (a second one exits at once). SIGQUIT
 *  (Ctrl-\\ outside the live UI) too: its default action would end vouch at once
 *  and leave every child, each leading its own group, running on unstopped.
 *  SIGHUP too: a closed terminal (or ssh session, or tmux) signals only vouch,
 *  never its children (they lead their own groups), so vouch must stop them. */
const STOP_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];

export class SessionSignals {
  private readonly controller = new AbortController();
  private interrupts = 0;
  private runOver = false;
  private leave = () => {};
  /** Resolves when a signal arrives after the run is over (the person leaves the final frame). */
  readonly left = new Promise<void>((resolve) => (this.leave = resolve));
  private readonly restoreStdout: () => void;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.runOver) return this.leave();
    this.interrupts += 1;
    if (this.interrupts === 1) {
      // Ctrl-C's notice says Ctrl-C; any other signal is named (a SIGTERM from a CI runner is no keypress).
      this.io.err(
        signal === "SIGINT"
          ? "vouch: cancelling the run (children are stopped; Ctrl-C again to stop at once)\n"
          : `vouch: ${signal}: cancelling the run (children are stopped; a second signal stops at once)\n`,
      );
      this.cancel();
    } else this.exitNow();
  };

  /** exitNow: the second signal's hard exit (kills every group, exits 130). */
  constructor(
    private readonly io: CliIO,
    private readonly exitNow: () => void,
  ) {
    STOP_SIGNALS.forEach((s) => process.on(s, this.onSignal));
    // A closed pipe (vouch run --json | head) cancels the run like Ctrl-C: it stays resumable.
    this.restoreStdout = onStdoutClosed(this.cancel);
  }

  /** The signal the engine runs under. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  readonly cancel = (): void => {
    if (!this.controller.signal.aborted) this.controller.abort(new Error("interrupted"));
  };

  /** Another process asked to cancel the run (`vouch cancel`, ADR 0062): the run records who
   *  and stops as on Ctrl-C. A second request does nothing more (a second signal still exits). */
  readonly cancelBy = (r: CancelRequest): void => {
    if (this.controller.signal.aborted) return;
    this.io.err(
      sanitize(`vouch: cancel requested by ${r.by.user}@${r.by.host} (pid ${r.by.pid}): cancelling the run (children are stopped)\n`),
    );
    this.controller.abort(new CancelRequested(r.id, r.by, r.at, r.via));
  };

  /** The run has ended: from now on a signal only leaves. */
  runEnded(): void {
    this.runOver = true;
  }

  dispose(): void {
    STOP_SIGNALS.forEach((s) => process.off(s, this.onSignal));
    this.restoreStdout();
  }
}
