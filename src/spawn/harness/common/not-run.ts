// A sitting that produced nothing: refused, cancelled before it started, or a
// replay that could not be played. One shape for the runner and replay.
import type { Sitting } from "../../../engine/ports.ts";

export function notRun(stopReason: Sitting["stopReason"], error: string, wallMs = 0): Sitting {
  return {
    stopReason,
    resultText: "",
    turns: null,
    costUsd: null,
    tokens: null,
    wallMs,
    permissionDenials: 0,
    exitCode: null,
    stderrTail: "",
    error,
  };
}
