// `--json`: one event per line on stdout and nothing else (docs/events.md).
// A reader that goes away (`vouch run --json | head`) ends the output quietly.
import { isClosedStream, type EventOutput } from "./output.ts";

export function createNdjsonOutput(write: (text: string) => void): EventOutput {
  let closed = false;
  return {
    push(event) {
      if (closed) return;
      try {
        // JSON.stringify escapes newlines inside strings, so one event is always one line.
        write(`${JSON.stringify(event)}\n`);
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
