// Plain progress lines for pipes, CI logs and `--plain` (ADR 0007): one line per
// significant event, never wider than `width`, coloured only when `color`.
import { isClosedStream, type EventOutput } from "./output.ts";
import { fitLine, paint } from "./lines.ts";
import { plainLines } from "./plain-lines.ts";
import { reduce } from "./view-model.ts";
import { initialState } from "./view-state.ts";
import { foldBranch } from "./view-fold.ts";

export function createPlainOutput(write: (text: string) => void, opts: { color: boolean; width: number }): EventOutput {
  const width = Math.max(20, Math.floor(opts.width));
  // The same view model as the TUI: branch labels and verdict texts come from it.
  let state = initialState();
  let closed = false;
  return {
    push(event) {
      if (closed) return;
      const before = state;
      state = reduce(state, event);
      const lines = plainLines(state, event, before);
      // A finished branch's line is printed once: then the branch leaves the state (ADR 0078).
      if (event.type === "branch.finished") state = foldBranch(state, event.branch);
      if (lines.length === 0) return;
      try {
        write(lines.map((l) => `${paint(fitLine(l, width), opts.color)}\n`).join(""));
      } catch (e) {
        if (!isClosedStream(e)) throw e;
        closed = true;
      }
    },
    async close() {
      closed = true;
    },
  };
}
