// A live worker's heartbeat, whatever carries it (ADR 0037): what `vouch workers`
// lists. Read back from the transport, so it is checked like any untrusted data.
import { z } from "zod";

const beatSchema = z.object({
  name: z.string(),
  pid: z.number(),
  concurrency: z.number(),
  running: z.array(z.string()),
  started: z.string(),
  at: z.string(),
});
export type Heartbeat = z.output<typeof beatSchema>;

/** What `vouch workers` shows of any executor: live workers (by name) and the queue's counts. */
export interface FleetView {
  workers: Heartbeat[];
  jobs: { waiting: number; active: number };
}

/** null for anything that is not a heartbeat (it is left out of the list, not trusted). */
export function parseHeartbeat(text: string): Heartbeat | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = beatSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
