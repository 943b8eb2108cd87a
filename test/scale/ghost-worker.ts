// A BullMQ worker that takes one branch job and never answers: a worker killed right
// after it took a job, before it sent anything (test/scale/fleet-integrity.test.ts
// kills this process by pid once it printed "took").
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { QUEUE } from "../../src/executor/redis/keys.ts";

const connection = new Redis(process.argv[2]!, { maxRetriesPerRequest: null });
new Worker(
  QUEUE,
  async () => {
    process.stdout.write("took\n");
    await new Promise(() => {});
  },
  { connection, lockDuration: 1000, stalledInterval: 500 },
);
