// A condition as zod sees it: a record the rules of condition-rules.ts hold no problem in.
// The rules and the types live there, without zod (ADR 0083); this file re-exports them.
import { z } from "zod";
import { conditionProblems } from "./condition-rules.ts";

export { conditionPaths, conditionProblems, OPERATORS } from "./condition-rules.ts";
export type { Condition, ConditionProblem, PathTest, Scalar } from "./condition-rules.ts";

export const conditionSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    for (const p of conditionProblems(value)) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
  })
  .meta({ description: "A condition as data: { path: value }, { path: { in|matches|exists|equals|gt|gte|lt|lte: ... } }, all/any/not." });
