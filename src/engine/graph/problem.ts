// A problem found in a graph before it is given a position in the source.
// The validator works on parsed values and names *where* by a path into the
// document; the loader turns that path into file:line:col (yaml-positions.ts).
import type { GraphProblem } from "../errors.ts";

export type Path = (string | number)[];

export interface PathProblem {
  /** Path into the document: ["nodes", "parse", "needs", 0]. */
  path: Path;
  /** What on that path to point at: the value (default), the key of the
   *  entry, or the key that holds the path's parent (a missing field). */
  at?: "value" | "key" | "parentKey";
  /** Offset inside the string value (a template's "{{"). */
  offset?: number;
  message: string;
  hint?: string;
}

/** "success.checks[0]" for a relative path. */
export function formatPath(path: Path): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? seg : `.${seg}`;
  }
  return out;
}

/** What a path is inside of, for messages: `node "b"`, `check "tests"`, `input "x"`, or "". */
export function ownerOf(path: Path): { owner: string; rest: Path } {
  if (path[0] === "nodes" && typeof path[1] === "string") {
    if (path[2] === "branch" && typeof path[3] === "string") return { owner: `node "${path[3]}"`, rest: path.slice(4) };
    return { owner: `node "${path[1]}"`, rest: path.slice(2) };
  }
  if (path[0] === "checks" && typeof path[1] === "string") return { owner: `check "${path[1]}"`, rest: path.slice(2) };
  if (path[0] === "inputs" && typeof path[1] === "string") return { owner: `input "${path[1]}"`, rest: path.slice(2) };
  return { owner: "", rest: path };
}

/** A bug in the validator, as the one problem of a file (the loaders never throw: a bug must
 *  not become a stack trace for a user mistake). */
export function validatorBug(file: string, e: unknown): GraphProblem {
  const message = e instanceof Error ? e.message : String(e);
  return {
    file,
    line: 1,
    col: 1,
    message: `internal error in the validator: ${message}`,
    hint: "this is a bug in vouch; please report it with this file",
  };
}
