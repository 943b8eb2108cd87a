// A job as it travels (ADR 0045): the coordinator seals it — the job's JSON text and the
// fleet key's MAC over the job's id and that text — and a worker runs only what it can
// open. The text is carried as a string so the MAC is over exact bytes (no re-encoding
// of JSON between the two). The id is under the MAC too: a sealed job moved to another
// id does not open.
import type { BranchJob } from "../engine/ports.ts";
import type { FleetKey } from "./fleet-key.ts";
import { parseJob } from "./job-shape.ts";

export interface SealedJob {
  /** The envelope's format: a worker refuses one it does not know. */
  seal: 1;
  job: string;
  mac: string;
}

export function sealJob(job: BranchJob, key: FleetKey): SealedJob {
  const text = JSON.stringify(job);
  return { seal: 1, job: text, mac: key.mac("job", job.jobId, text) };
}

export type OpenedJob = { ok: true; job: BranchJob } | { ok: false; why: string };

/** The run a job id belongs to (`<run>.<map>.<index>.<dispatch>`, run ids hold no "."):
 *  where a refusal of a job that does not open is sent. */
export function runOfJobId(id: string): string {
  return id.split(".")[0] ?? id;
}

/** The job, when `data` is a sealed job this key made for the job id `id`, from a coordinator
 *  of this worker's `version`; else why not (what the coordinator records as the branch's error). */
export function openJob(data: unknown, id: string, key: FleetKey, version: string): OpenedJob {
  const d = data as Partial<SealedJob> | null;
  if (d === null || typeof d !== "object" || d.seal !== 1 || typeof d.job !== "string")
    return { ok: false, why: "the job is not a sealed vouch job (made by hand, or by a vouch without fleet keys)" };
  if (!key.verify(d.mac, "job", id, d.job))
    return {
      ok: false,
      why: "the job does not verify with this worker's fleet key: it was changed in Redis, or the coordinator holds another key",
    };
  let raw: unknown;
  try {
    raw = JSON.parse(d.job);
  } catch {
    return { ok: false, why: "the job's text is not JSON" };
  }
  // Before the shape: a coordinator of another vouch may write one this worker does not know.
  const from = (raw as { version?: unknown } | null)?.version;
  if (from !== version) {
    const theirs = typeof from === "string" ? `vouch ${from.slice(0, 40)}` : "an unknown vouch";
    return { ok: false, why: `the job is from ${theirs}; this worker is vouch ${version}: run workers of the coordinator's version` };
  }
  const job = parseJob(raw);
  if (!job) return { ok: false, why: "the job is not a vouch branch job (wrong shape)" };
  if (job.jobId !== id || job.runId !== runOfJobId(id)) return { ok: false, why: "the job's data names another job id" };
  return { ok: true, job };
}
