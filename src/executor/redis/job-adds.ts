// The coordinator's job creations, a turn's together (ADR 0079): the jobs the engine
// dispatches in one turn go to the queue in one round trip (one addBulk), a single one
// by add. The same id twice is one job: a resumed coordinator re-attaches to it.
import type { Queue } from "bullmq";
import type { SealedJob } from "../job-seal.ts";
import { KEEP_SECONDS } from "./keys.ts";

interface Add {
  id: string;
  data: SealedJob;
  added(): void;
}

const opts = (id: string) => ({ jobId: id, removeOnComplete: { age: KEEP_SECONDS }, removeOnFail: { age: KEEP_SECONDS } });

export class JobAdds {
  private waiting: Add[] = [];
  private due: ReturnType<typeof setImmediate> | null = null;

  constructor(
    private readonly queue: Queue,
    private readonly failed: (e: Error) => void,
  ) {}

  /** Created at the end of this turn; `added` is called once the queue holds it. */
  add(a: Add): void {
    this.waiting.push(a);
    this.due ??= setImmediate(() => this.now());
  }

  /** The executor closes: what waits is not created. */
  stop(): void {
    if (this.due) clearImmediate(this.due);
    this.due = null;
  }

  private now(): void {
    this.due = null;
    const batch = this.waiting.splice(0);
    const adding =
      batch.length === 1
        ? this.queue.add("branch", batch[0]!.data, opts(batch[0]!.id))
        : this.queue.addBulk(batch.map((a) => ({ name: "branch", data: a.data, opts: opts(a.id) })));
    adding.then(() => batch.forEach((a) => a.added())).catch((e: unknown) => this.failed(e as Error));
  }
}
