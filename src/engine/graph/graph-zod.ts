// The zod side of loading a graph (ADR 0083): required by the loader only when the fast
// check (schema-fast.ts) is not sure a graph is valid, so a valid graph never loads zod nor
// builds the schema. zod stays the one judge: its issues become the problems users read,
// and salvage keeps the sound part of the graph for the validator's own rules.
import type { PathProblem } from "./problem.ts";
import { salvage } from "./salvage.ts";
import { graphSchema, type GraphFile } from "./schema.ts";
import { zodProblems, type Issue } from "./zod-issues.ts";

export type ZodGraph = { graph: GraphFile } | { problems: PathProblem[]; sound: ReturnType<typeof salvage> };

export function zodGraph(raw: unknown): ZodGraph {
  // One-shot parse: zod's eval-compiled fast path costs more than it saves here
  // (test/graph/loader-no-eval.test.ts).
  const parsed = graphSchema.safeParse(raw, { jitless: true });
  if (parsed.success) return { graph: parsed.data };
  const issues = parsed.error.issues as unknown as Issue[];
  return { problems: zodProblems(issues, raw), sound: salvage(raw, issues) };
}
