// One entry of a run's stream as Redis returns it (["m", text, "h", mac, ...]): the message
// it holds when its MAC verifies with the fleet key (ADR 0045), else null (dropped unread).
import type { FleetKey } from "../fleet-key.ts";
import { openMessage, type StreamMessage } from "../protocol.ts";

export function openEntry(fields: string[], runId: string, key: FleetKey): StreamMessage | null {
  const f: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1];
  return f.m === undefined ? null : openMessage(runId, f.m, f.h, key);
}
