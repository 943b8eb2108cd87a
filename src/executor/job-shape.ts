// A job's data as a worker reads it: untrusted until it has this shape.
import { z } from "zod";
import { HARNESS_NAMES } from "../engine/graph/schema.ts";
import type { BranchJob } from "../engine/ports.ts";
import { SANDBOX_MODES } from "../engine/sandbox.ts";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);
const record = z.record(z.string(), z.unknown());

// Whoever can write to Redis can write a job: nothing here may reach git as an option
// (a leading "-") or climb out of the worker's clone (an absolute or ".." prefix).
const noOption = z
  .string()
  .min(1)
  .refine((v) => !v.startsWith("-") && !/[\0\n\r]/.test(v), "must not start with - or hold a control character");
const prefix = z
  .string()
  .refine((p) => !p.startsWith("/") && !p.includes("\0") && !p.split("/").includes(".."), "must be a relative path inside the repository");
const remoteWorkspace = z.strictObject({
  url: noOption,
  remote: noOption,
  bases: z.array(z.strictObject({ ref: noOption, commit: z.string().regex(/^[0-9a-f]{40,64}$/) })),
  prefix,
});

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
  workspace: remoteWorkspace.optional(),
  sandbox: z.enum(SANDBOX_MODES).optional(),
});

export function parseJob(data: unknown): BranchJob | null {
  const r = jobSchema.safeParse(data);
  return r.success ? (r.data as BranchJob) : null;
}
