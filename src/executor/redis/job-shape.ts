// A job's data as a worker reads it: untrusted until it has this shape.
import { z } from "zod";
import { HARNESS_NAMES } from "../../engine/graph/schema.ts";
import type { BranchJob } from "../../engine/ports.ts";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);
const record = z.record(z.string(), z.unknown());

const jobSchema = z.object({
  runId: z.string().min(1),
  jobId: z.string().min(1),
  dispatch: z.number().int().min(1),
  map: z.string().min(1),
  index: z.number().int().min(0),
  item: z.unknown(),
  graph: record,
  graphDigest: z.string(),
  graphPath: z.string(),
  inputs: record,
  upstream: record,
  kept: record,
  harness: z.enum(HARNESS_NAMES).optional(),
  passEnv: z.array(envName),
  baseDir: z.string(),
  concurrency: z.number().int().positive(),
  version: z.string(),
});

export function parseJob(data: unknown): BranchJob | null {
  const r = jobSchema.safeParse(data);
  return r.success ? (r.data as BranchJob) : null;
}
