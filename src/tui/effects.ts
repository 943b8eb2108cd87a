// Carries out what a key asked for (keys.ts decides, this acts): answers go to
// the approval queue, cancel/exit/quit go to whoever runs the UI.
import type { Effect } from "./keys.ts";
import type { TuiStore } from "./tui-store.ts";

export interface EffectTargets {
  onCancel(): void;
  /** Second Ctrl-C: restore the terminal, then exit at once. */
  onExitNow(): void;
  /** Leave the UI (q on a finished run or a replay). */
  onQuit(): void;
}

export function effectHandler(store: TuiStore, to: EffectTargets): (e: Effect) => void {
  return (e) => {
    switch (e.kind) {
      case "answer":
        store.approvals.answer(e.id, e.decision);
        return;
      case "pauseApprovals":
        store.approvals.pauseAll();
        return;
      case "cancel":
        to.onCancel();
        return;
      case "exitNow":
        to.onExitNow();
        return;
      case "quit":
        to.onQuit();
        return;
    }
  };
}
