// A sitting that produced nothing: refused, cancelled before it started, a
// replay that could not be played, or an agent runner that threw. One shape for
// the harnesses (the runner, replay) and the engine.
import type { Sitting } from "./ports.ts";

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
