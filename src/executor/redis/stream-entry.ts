// One entry of a run's stream as Redis returns it: ["m", text, "h", mac, "m", text, "h", mac, ...]
// — one sealed message per pair, in the order sent (a worker puts the messages of one
// flush in one entry, ADR 0079). Each pair is opened on its own with the fleet key
// (ADR 0045): one that does not verify is null (dropped unread), the others stand.
import type { FleetKey } from "../fleet-key.ts";
import { openMessage, type SealedMessage, type StreamMessage } from "../protocol.ts";

/** The fields of one entry holding `messages`, in order. */
export function entryFields(messages: readonly SealedMessage[]): string[] {
  return messages.flatMap((m) => ["m", m.text, "h", m.mac]);
}

/** The messages of one entry, in order; null for each that does not verify (or has no MAC). */
export function openEntry(fields: readonly string[], runId: string, key: FleetKey): (StreamMessage | null)[] {
  const out: (StreamMessage | null)[] = [];
  let text: string | null = null;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    const value = fields[i + 1]!;
    if (name === "m") {
      if (text !== null) out.push(null); // a text with no MAC after it
      text = value;
    } else if (name === "h" && text !== null) {
      out.push(openMessage(runId, text, value, key));
      text = null;
    }
  }
  // A text with no MAC after it, or an entry with no message at all: dropped, as one that does not verify.
  if (text !== null || out.length === 0) out.push(null);
  return out;
}
