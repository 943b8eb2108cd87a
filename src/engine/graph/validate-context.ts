// What every validator rule reads: the parsed graph, its node index, and the
// names that exist but did not pass the schema (so they are not reported twice).
import type { GraphFile } from "./schema.ts";
import type { GraphIndex } from "./graph-index.ts";
import type { PathProblem } from "./problem.ts";

export interface ValidateContext {
  graph: GraphFile;
  index: GraphIndex;
  /** Check names in the library, or "any" when the library itself did not parse. */
  checkNames: Set<string> | "any";
  /** Declared input names, or "any" when `inputs` itself did not parse. */
  inputNames: Set<string> | "any";
  report(problem: PathProblem): void;
}

export type Rule = (ctx: ValidateContext) => void;
