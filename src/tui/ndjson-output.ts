// `--json`: one event per line on stdout and nothing else (docs/events.md).
// A reader that goes away (`vouch run --json | head`) ends the output quietly.
import { eventJson } from "../engine/events.ts";
import { isClosedStream, type EventOutput } from "./output.ts";

/** An event text this long is written on its own, its newline after it: appended to the
 *  batch's text it would be copied whole once more (a map's node.finished at 100,000 items
 *  is 9.4 MB), and a writer that writes it in slices would flatten the concatenation first. */
export const LONG_EVENT_CHARS = 64 * 1024;

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
  const putEvents = (events: readonly Parameters<EventOutput["push"]>[0][]): void => {
    let text = "";
    for (const e of events) {
      const json = eventJson(e);
      if (json.length < LONG_EVENT_CHARS) {
        text += `${json}\n`;
        continue;
      }
      if (text !== "") put(text);
      put(json);
      text = "\n";
    }
    if (text !== "") put(text);
  };
  return {
    // JSON.stringify escapes newlines inside strings, so one event is always one line.
    push(event) {
      putEvents([event]);
    },
    // A committed batch in one write, not one per event (a long event's text by itself).
    pushMany(events) {
      putEvents(events);
    },
    async close() {
      closed = true;
    },
  };
}
