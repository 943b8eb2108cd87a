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

  emit(body: EventBody): VouchEvent {
    const event = { v: 1, run: this.runId, t: new Date(this.clock.now()).toISOString(), seq: this.seq++, ...body } as VouchEvent;
    this.ledger.append(event);
    return event;
  }
}
