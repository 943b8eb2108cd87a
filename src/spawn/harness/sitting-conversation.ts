// A sitting that talks with its program (ADR 0051: an ACP agent): the parser is
// handed the program's stdin once it started, reports progress between lines,
// and says when it has its answer. An ACP agent is a server — it does not exit
// after the prompt — so vouch closes its stdin then, and stops it after a short
// grace (claude-code-acp does not exit on a closed stdin); that stop is the
// sitting's own end, not a cancel.
import type { SittingProgress } from "../../engine/ports.ts";
import type { StdinSink } from "../process-types.ts";
import type { HarnessCommand, StreamParser } from "./types.ts";

/** How long an agent that has answered may take to exit once its stdin is closed. */
export const ANSWERED_EXIT_GRACE_MS = 1_500;

export interface SittingConversation {
  /** ProcessOptions.conversation, when the harness converses. */
  option: ((stdin: StdinSink) => void) | undefined;
  /** True when vouch stopped the program only because it had answered. */
  endedByAnswer(): boolean;
  dispose(): void;
}

export function sittingConversation(
  parser: StreamParser,
  command: HarnessCommand,
  onProgress: (p: SittingProgress) => void,
  stop: { abort(): void },
  graceMs = ANSWERED_EXIT_GRACE_MS,
): SittingConversation {
  let ended = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (!command.conversation || !parser.converse) return { option: undefined, endedByAnswer: () => false, dispose() {} };
  return {
    option: (stdin) =>
      parser.converse!(stdin, {
        progressed: onProgress,
        finished() {
          stdin.end();
          timer = setTimeout(() => {
            ended = true;
            stop.abort();
          }, graceMs);
          timer.unref?.();
        },
      }),
    endedByAnswer: () => ended,
    dispose: () => clearTimeout(timer),
  };
}
