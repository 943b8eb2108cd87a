// `--json`: one event per line on stdout and nothing else (docs/events.md).
// A reader that goes away (`vouch run --json | head`) ends the output quietly.
import { eventJson } from "../engine/events.ts";
import { isClosedStream, type EventOutput } from "./output.ts";

export function createNdjsonOutput(write: (text: string) => void): EventOutput {
  let closed = false;
  const put = (text: string): void => {
    if (closed) return;
    try {
      write(text);
    } catch (e) {
      if (!isClosedStream(e)) throw e;
      closed = true;
    }
  };
  return {
    // JSON.stringify escapes newlines inside strings, so one event is always one line.
    push(event) {
      put(`${eventJson(event)}\n`);
    },
    // A committed batch in one write, not one per event.
    pushMany(events) {
      let text = "";
      for (const e of events) text += `${eventJson(e)}\n`;
      put(text);
    },
    async close() {
      closed = true;
    },
  };
}
