// The one place events are made: adds the envelope {v, run, t, seq} and hands
// each event to the ledger (which records it before any consumer shows it).
import type { EventBody, VouchEvent } from "../events.ts";
import type { Clock, Ledger } from "../ports.ts";

export class Emitter {
  private seq: number;
  constructor(
    private readonly runId: string,
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    startSeq: number,
  ) {
    this.seq = startSeq;
  }

  private lastMs = Number.NaN;
  private lastIso = "";
  /** The clock as ISO text; a burst of events in one millisecond shares it (10,000 sittings: 60,000 events). */
  private time(): string {
    const ms = this.clock.now();
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastIso = new Date(ms).toISOString();
    }
    return this.lastIso;
  }

  emit(body: EventBody): VouchEvent {
    const header = { v: 1 as const, run: this.runId, t: this.time(), seq: this.seq++ };
    // A body from outside the process (a worker's event, ADR 0026) may carry header keys of its
    // own: the header is set again after the spread, so they never win (the keys keep their
    // order). Only then: one copy of a body per event, not two (ADR 0092).
    const event = { v: header.v, run: header.run, t: header.t, seq: header.seq, ...body } as VouchEvent;
    if (Object.hasOwn(body, "v") || Object.hasOwn(body, "run") || Object.hasOwn(body, "t") || Object.hasOwn(body, "seq"))
      Object.assign(event, header);
    this.ledger.append(event);
    return event;
  }
}
