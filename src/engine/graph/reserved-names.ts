// Names every JavaScript object already has (Object.prototype's properties)
// are refused wherever a graph chooses a name that becomes a key: node ids,
// check names, input names, a map's `as`, stamp fields (ADR 0019). As keys they
// either vanish (`__proto__` is dropped by the schema library) or collide with
// inherited members (`constructor`); refusing them at load, with the place,
// is the one consistent rule. Checked on the YAML's own value, before the
// schema step could drop a key.
import { isObject as isRaw } from "../json-object.ts";
import type { Path, PathProblem } from "./problem.ts";

export const RESERVED_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort();
const RESERVED = new Set(RESERVED_NAMES);

function refused(what: string, name: string, path: Path, at: "key" | "value"): PathProblem {
  return {
    path,
    at,
    message: `"${name}" cannot be ${what}: every JavaScript object already has a member of that name`,
    hint: `rename it (for example "${name.replace(/^_+|_+$/g, "") || "x"}_${what.split(" ").at(-1)}"); refused names: ${RESERVED_NAMES.join(", ")}`,
  };
}

function keysOf(holder: unknown, what: string, path: Path, out: PathProblem[]): void {
  if (!isRaw(holder)) return;
  for (const key of Object.keys(holder)) if (RESERVED.has(key)) out.push(refused(what, key, [...path, key], "key"));
}

function nodeNames(node: unknown, path: Path, out: PathProblem[]): void {
  if (!isRaw(node)) return;
  keysOf(node.stamp, "a stamp field", [...path, "stamp"], out);
  if (node.kind === "graph") keysOf(node.inputs, "an input name", [...path, "inputs"], out);
  const success = isRaw(node.success) ? node.success : {};
  (Array.isArray(success.checks) ? success.checks : []).forEach((c: unknown, i) => {
    if (isRaw(c) && typeof c.name === "string" && RESERVED.has(c.name))
      out.push(refused("a check name", c.name, [...path, "success", "checks", i, "name"], "value"));
  });
  if (typeof node.as === "string" && RESERVED.has(node.as)) out.push(refused("a map item name (as)", node.as, [...path, "as"], "value"));
  if (node.kind !== "map" || !isRaw(node.branch)) return;
  keysOf(node.branch, "a node id", [...path, "branch"], out);
  for (const [bid, b] of Object.entries(node.branch)) nodeNames(b, [...path, "branch", bid], out);
}

/** Every refused name in the raw graph value (from YAML, before the schema step). */
export function reservedNames(raw: unknown): PathProblem[] {
  const out: PathProblem[] = [];
  if (!isRaw(raw)) return out;
  keysOf(raw.inputs, "an input name", ["inputs"], out);
  keysOf(raw.checks, "a check name", ["checks"], out);
  keysOf(raw.nodes, "a node id", ["nodes"], out);
  if (isRaw(raw.nodes)) for (const [id, node] of Object.entries(raw.nodes)) nodeNames(node, ["nodes", id], out);
  return out;
}
