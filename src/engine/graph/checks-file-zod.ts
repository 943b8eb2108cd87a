// The zod side of reading a checks file (ADR 0083): required by checks-file.ts only when
// the fast check (schema-fast.ts) is not sure the file is valid; zod alone says what is wrong.
import { z } from "zod";
import type { PathProblem } from "./problem.ts";
import { checkDefSchema } from "./schema.ts";
import { zodProblems, type Issue } from "./zod-issues.ts";

export const checksFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    protect: z.array(z.string().min(1)).optional().meta({
      description:
        'Globs of the repository files these checks run from the tree (their scripts, their tests), e.g. "scripts/**": no agent of a planned graph may change them (ADR 0047). [] says they run nothing from the tree.',
    }),
    checks: z.record(z.string().min(1), checkDefSchema),
  })
  .meta({ title: "vouch checks file", description: "A check library: only a checks: mapping, named by a graph's checks_from." });

export type ChecksFileData = z.output<typeof checksFileSchema>;
export type ZodChecksFile = { data: ChecksFileData } | { problems: PathProblem[] };

/** `known`: the file's known keys (checks-file.ts reports the others); `raw`: the whole file. */
export function zodChecksFile(known: unknown, raw: unknown): ZodChecksFile {
  const parsed = checksFileSchema.safeParse(known, { jitless: true });
  if (parsed.success) return { data: parsed.data };
  const issues = (parsed.error.issues as unknown as Issue[]).filter((i) => i.path[0] === "checks" || i.path[0] === "protect"); // other keys: said above
  return { problems: zodProblems(issues, raw) };
}
