// The live terminal UI. The only entry to ink and React: the CLI loads this
// module with a dynamic import on the TTY path, so `--json` and `--version`
// never evaluate them.
//
//   const tui = startTui({ stdout, stdin, color, onCancel, onExitNow });
//   engine events → tui.push(e); engine approvals → tui.approvals
//   after run.finished: await tui.close()   (final frame drawn, terminal restored)
import { render, type Instance } from "ink";
import type { VouchEvent } from "../engine/events.ts";
import type { Approvals } from "../engine/ports.ts";
import { AppView } from "./ink/app-view.tsx";
import { effectHandler } from "./effects.ts";
import type { EventOutput } from "./output.ts";
import type { FrameScheduler } from "./throttle.ts";
import { createTuiStore } from "./tui-store.ts";

export interface TuiOptions {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  /** Where Ink writes its own errors: the CLI's stderr (absent: tests on a fake terminal, process.stderr). */
  stderr?: NodeJS.WriteStream;
  color: boolean;
  /** The user asked to cancel the run (Ctrl-C, or q then y). Cancel it; close() follows run.finished. */
  onCancel(): void;
  /** Second Ctrl-C: the terminal is already restored when this is called; exit at once (130). */
  onExitNow(): void;
  /** `vouch show --tui`: a finished run; q and Ctrl-C just leave. */
  replay?: boolean;
  /** `vouch watch`: a run another process drives, live; q and Ctrl-C leave the view (ADR 0063). */
  watching?: boolean;
  /** Frame clock (tests count frames on a fake one). */
  scheduler?: FrameScheduler;
  /** Minimum time between frames, default FRAME_INTERVAL_MS (50). */
  intervalMs?: number;
  /** Ink debug mode: every frame written whole, nothing erased (tests read frames). */
  debug?: boolean;
}

export interface TuiHandle extends EventOutput {
  /** Answers the engine's approval requests on screen; "pause" once the user has left. */
  approvals: Approvals;
  /** Settles when the UI is gone: close(), q on a finished run or a replay, or the second Ctrl-C. */
  done: Promise<void>;
  /** After the run's end: settles when the person leaves the final frame (q, Ctrl-C) — at once
   *  if they already chose to quit (q, then y to leave approvals for later). */
  held(): Promise<void>;
  /** Frames published to React so far (bounded by the throttle). */
  readonly frames: number;
}

export function startTui(opts: TuiOptions): TuiHandle {
  const replay = opts.replay === true;
  const store = createTuiStore({
    tick: !replay,
    ...(opts.scheduler ? { scheduler: opts.scheduler } : {}),
    ...(opts.intervalMs !== undefined ? { intervalMs: opts.intervalMs } : {}),
  });
  let instance: Instance | null = null;
  let gone = false;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  // Leave the terminal as we found it: Ink restores raw mode, cursor and paste mode on unmount.
  const teardown = () => {
    if (gone) return;
    gone = true;
    store.stop();
    store.approvals.pauseAll();
    process.off("exit", teardown);
    instance?.unmount();
    // Ink leaves the cursor at the end of the last frame: start the shell's next line below it.
    opts.stdout.write("\n");
  };
  process.once("exit", teardown);

  let quitChosen = false;
  const carryOut = effectHandler(store, {
    onCancel: () => opts.onCancel(),
    onExitNow: () => {
      teardown();
      opts.onExitNow();
    },
    onQuit: () => void finish(),
  });
  const onEffect = (e: Parameters<typeof carryOut>[0]) => {
    if (e.kind === "pauseApprovals") quitChosen = true;
    carryOut(e);
  };

  const finish = async () => {
    if (gone) return;
    store.flush();
    await instance?.waitUntilRenderFlush();
    teardown();
    await instance?.waitUntilExit().catch(() => undefined);
    resolveDone();
  };

  const watching = opts.watching === true;
  instance = render(<AppView store={store} color={opts.color} replay={replay} watching={watching} onEffect={onEffect} />, {
    stdout: opts.stdout,
    stdin: opts.stdin,
    stderr: opts.stderr ?? process.stderr,
    exitOnCtrlC: false,
    patchConsole: false,
    // The CLI chose the TUI because stdout is a terminal; CI detection must not turn frames off.
    interactive: true,
    debug: opts.debug === true,
  });
  void instance.waitUntilExit().then(
    () => resolveDone(),
    () => resolveDone(),
  );

  return {
    push(event) {
      if (!gone) store.push(event);
    },
    async close() {
      await finish();
      await done;
    },
    approvals: store.approvals,
    done,
    held: () => (quitChosen ? Promise.resolve() : done),
    get frames() {
      return store.frames;
    },
  };
}

/** `vouch show RUN --tui`: a recorded run in the same view; resolves once the user leaves (q or Ctrl-C). */
export async function replayTui(
  events: Iterable<VouchEvent>,
  opts: Pick<TuiOptions, "stdout" | "stdin" | "stderr" | "color" | "debug">,
): Promise<void> {
  const tui = startTui({ ...opts, replay: true, onCancel: () => undefined, onExitNow: () => undefined });
  for (const e of events) tui.push(e);
  await tui.done;
  await tui.close();
}
