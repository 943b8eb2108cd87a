// Every Redis name vouch uses, in one place (docs/scale-out.md lists them).
export const QUEUE = "vouch-branches";
/** BullMQ's lock of a job while a worker holds it (its default prefix "bull", its
 *  `toKey(jobId) + ":lock"`; the value is the holding worker's token): the lease a result
 *  is delivered under (deliver.ts). test/scale/fleet-integrity.test.ts breaks if BullMQ moves it. */
export const lockKey = (job: string) => `bull:${QUEUE}:${job}:lock`;
/** Events of one run, from every worker: one stream per run. */
export const eventsKey = (run: string) => `vouch:run:${run}:events`;
/** Set by the coordinator: the job's branch must stop (value: the stop reason). */
export const cancelKey = (job: string) => `vouch:cancel:${job}`;
/** Set once by the worker that delivered the job's result: a later attempt does nothing. */
export const doneKey = (job: string) => `vouch:done:${job}`;
/** A live worker's heartbeat (expires when it stops beating). */
export const workerKey = (name: string) => `vouch:worker:${name}`;
export const WORKER_PATTERN = "vouch:worker:*";
/** How long run data stays in Redis after it was last written. */
export const KEEP_SECONDS = 7 * 24 * 3600;
