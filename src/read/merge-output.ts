// A merge node's branches (ADR 0021) as a reader holds them: the engine's own records
// (src/engine/run/merge-verdict.ts writes them into the node's output), read back from
// the ledger. Only types: what is read is not trusted to hold the engine's values.
import type { LeftOutBranch as EngineLeftOut, MergedBranch as EngineMerged } from "../engine/run/merge-verdict.ts";

/** A merged branch; a reader labels `from` as it labels every node (`map[index]`, node-path.ts). */
export type MergedBranch = EngineMerged;

/** A branch left out; its reason any text, as recorded. */
export type LeftOutBranch = Omit<EngineLeftOut, "reason"> & { reason: string };
