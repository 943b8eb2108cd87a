// Lines that are no progress (ADR 0050): a CLI that cannot reach its model says
// so again and again — codex "Reconnecting... waiting for network" for ever,
// claude an `api_retry` per retry — and each line used to hold off the idle cap,
// so a sitting that could never progress never ended. A harness names its own
// such events (HarnessAdapter.quietLine); this reads one line cheaply: only a
// short line that holds the words is parsed at all.
import { isObject, type JsonObject } from "../../../engine/json-object.ts";

/** A quiet notice is one short line; anything longer is output. */
const MAX_QUIET_LINE = 16 * 1024;

/** True when `line` is a JSON event holding every one of `words` and `is` says it is quiet. */
export function quietEvent(line: string, words: readonly string[], is: (event: JsonObject) => boolean): boolean {
  if (line.length > MAX_QUIET_LINE || !words.every((w) => line.includes(w))) return false;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return false;
  }
  return isObject(event) && is(event);
}
