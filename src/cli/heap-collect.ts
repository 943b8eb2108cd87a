// A full garbage collection after every COLLECT_EVERY_EVENTS events shown (issue 20), and a
// young-generation one after every YOUNG_EVERY_EVENTS (ADR 0084).
// A map of replayed sittings is one burst of work that never waits on anything: its
// 60,000 events for 10,000 branches left Bun's collector to let the heap grow to
// several times what was live (~15 MB), and the run peaked at 104 MB of RSS. One
// full collection per 10,000 events keeps the peak near 95 MB; it takes ~15 ms on
// such a heap, and nothing that a run of real processes, with far fewer events per
// second, would notice.
// Between two full collections the garbage of an event (its objects, its JSON, its
// row's strings) still piled up: JavaScriptCore counts the 256 KiB read buffers Bun keeps
// for finished processes' pipes as live memory (~550 MB "extra" in a map of `true`
// scripts), so its own collections came late. A young collection only visits what is
// new, so one per 1,000 events costs no measurable CPU and the young garbage goes at once:
// 10,000 replayed sittings peak 96–98 MiB instead of 107–110, a 40,000-item map of `true`
// ~116 instead of ~143 (ADR 0084, figures there).
import { edenGC, fullGC } from "bun:jsc";

export const COLLECT_EVERY_EVENTS = 10_000;
export const YOUNG_EVERY_EVENTS = 1_000;

/** Counts events shown; collects when COLLECT_EVERY_EVENTS more have been, and collects the
 *  young generation when YOUNG_EVERY_EVENTS more have (not both at once: a full one covers it). */
export function heapCollector(
  every = COLLECT_EVERY_EVENTS,
  collect: () => void = fullGC,
  youngEvery = YOUNG_EVERY_EVENTS,
  collectYoung: () => void = edenGC,
): (events: number) => void {
  let since = 0;
  let young = 0;
  return (events) => {
    since += events;
    young += events;
    if (since >= every) {
      since = 0;
      young = 0;
      collect();
    } else if (young >= youngEvery) {
      young = 0;
      collectYoung();
    }
  };
}
