// A full garbage collection after every COLLECT_EVERY_EVENTS events shown (issue 20).
// A map of replayed sittings is one burst of work that never waits on anything: its
// 60,000 events for 10,000 branches left Bun's collector to let the heap grow to
// several times what was live (~15 MB), and the run peaked at 104 MB of RSS. One
// full collection per 10,000 events keeps the peak near 95 MB; it takes ~15 ms on
// such a heap, and nothing that a run of real processes, with far fewer events per
// second, would notice.
import { fullGC } from "bun:jsc";

export const COLLECT_EVERY_EVENTS = 10_000;

/** Counts events shown; collects when COLLECT_EVERY_EVENTS more have been. */
export function heapCollector(every = COLLECT_EVERY_EVENTS, collect: () => void = fullGC): (events: number) => void {
  let since = 0;
  return (events) => {
    since += events;
    if (since < every) return;
    since = 0;
    collect();
  };
}
