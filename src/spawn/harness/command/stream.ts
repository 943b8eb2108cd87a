// Reads the `command` harness's stdout: the program reports nothing structured,
// so each non-empty line is the live activity and the result is stdout itself.
// The exit status is recorded, not judged here: the engine's exit_zero part
// fails a non-zero exit as `nonzero_exit`.
import type { SittingProgress } from "../../../engine/ports.ts";
import { lastLine } from "../common/json-documents.ts";
import type { ParsedSitting, StreamEnd, StreamParser } from "../types.ts";

export function createCommandParser(): StreamParser {
  let activity: string | undefined;
  const progress = (): SittingProgress => (activity !== undefined ? { activity } : {});
  return {
    feed(line) {
      const text = lastLine(line, 120);
      if (text === "") return null;
      activity = text;
      return progress();
    },
    progress,
    finish(end: StreamEnd): ParsedSitting {
      const base = { resultText: end.stdoutTail, turns: null, costUsd: null, tokens: null, permissionDenials: 0 };
      // Killed by a signal the engine did not send (the runner handles its own kills).
      if (end.exit === null) {
        const stderr = lastLine(end.stderrTail);
        return {
          ...base,
          stopReason: "crashed",
          error: `the program was killed by ${end.signal ?? "a signal"}${stderr ? `: ${stderr}` : ""}`,
        };
      }
      return { ...base, stopReason: "complete" };
    },
  };
}
