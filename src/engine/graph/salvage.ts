// When the schema refuses a file, the semantic rules still run on what is
// sound, so one `vouch validate` reports every problem (docs/graph-language.md).
//
// Each refused part is cut out of a copy of the document, as narrowly as is
// safe: a field whose absence changes no other rule's answer (caps, retry,
// success, ...) is cut at the deepest mapping key; a field other rules read
// (needs, output, fallback, as, ...) takes its whole node with it. Cut nodes,
// checks and inputs are remembered by name, so the rules neither re-check them
// nor call references to them unknown. Array items are never cut one by one:
// that would shift the indices the positions are found by.
import type { IndexedNode } from "./graph-index.ts";
import type { Path } from "./problem.ts";
import { graphSchema, type GraphFile } from "./schema.ts";
import type { Unparsed } from "./validate.ts";
import type { Issue } from "./zod-issues.ts";
import { isObject, type JsonObject } from "../json-object.ts";

type Obj = JsonObject;

/** Node fields whose absence makes no other rule report a problem that is not there. */
const CUTTABLE_NODE_FIELDS = new Set([
  "description",
  "harness",
  "model",
  "tools",
  "permission_mode",
  "cwd",
  "env",
  "caps",
  "retry",
  "timeout",
  "success",
  "stamp",
  "exhausted",
  "feedback",
  "when",
  "status",
  "max_concurrency",
  "fail_fast",
  "passes",
  "verdict",
  "prompt",
]);
const CUTTABLE_CHECK_FIELDS = new Set(["timeout", "expect", "description"]);

function clone(v: unknown, depth = 0): unknown {
  if (depth > 256 || v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map((x) => clone(x, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x, depth + 1)]));
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** What can still be read of a node the schema refused: its kind and the edges it makes. */
function opaqueNode(id: string, scope: string | null, raw: unknown): IndexedNode {
  const node = isObject(raw) ? raw : {};
  const kind = typeof node.kind === "string" ? node.kind : undefined;
  const path = scope === null ? ["nodes", id] : ["nodes", scope, "branch", id];
  const routesTo = [
    ...(Array.isArray(node.routes) ? node.routes.flatMap((r) => (isObject(r) ? strings(r.to) : [])) : []),
    ...strings(node.default),
  ];
  const fallback = typeof node.fallback === "string" ? node.fallback : undefined;
  return {
    id,
    scope,
    needs: strings(node.needs),
    path,
    rawEdges: { routesTo, ...(fallback !== undefined ? { fallback } : {}) },
    ...(kind !== undefined ? { kind } : {}),
  };
}

/** Delete the deepest existing mapping key along `rest` (stopping before any list index).
 *  Returns false when nothing below `container` exists to delete. */
function cutDeepest(container: Obj, rest: Path): boolean {
  const upToList = rest.findIndex((s) => typeof s === "number");
  const keys = (upToList < 0 ? rest : rest.slice(0, upToList)) as string[];
  let parent: Obj = container;
  let lastParent: Obj | undefined;
  let lastKey: string | undefined;
  for (const k of keys) {
    if (!Object.hasOwn(parent, k)) break;
    lastParent = parent;
    lastKey = k;
    const next = parent[k];
    if (!isObject(next)) break;
    parent = next;
  }
  if (lastParent === undefined || lastKey === undefined) return false;
  delete lastParent[lastKey];
  return true;
}

class Pruner {
  readonly unparsed: Unparsed = { nodes: [], checks: [], inputs: [] };
  readonly doc: Obj;

  constructor(raw: Obj) {
    this.doc = clone(raw) as Obj;
  }

  private get nodes(): Obj {
    return this.doc.nodes as Obj;
  }

  /** false when the file cannot be salvaged (its root or its nodes are not mappings). */
  apply(issue: Issue): boolean {
    const path = issue.path.map((s) => (typeof s === "symbol" ? String(s) : s)) as Path;
    if (issue.code === "unrecognized_keys") return (issue.keys ?? []).every((k) => this.cut([...path, k]));
    return this.cut(path);
  }

  private cut(path: Path): boolean {
    const [top, a] = path;
    if (top === undefined) return false;
    if (top === "nodes") {
      if (a === undefined) return false;
      const inBranch = path[2] === "branch" && path.length >= 4;
      return this.cutInNode(String(a), inBranch ? String(path[3]) : null, path.slice(inBranch ? 4 : 2));
    }
    if (top === "checks" || top === "inputs") {
      const table = this.doc[top];
      if (a === undefined || !isObject(table)) {
        this.unparsed[top] = "any";
        delete this.doc[top];
        return true;
      }
      const entry = table[String(a)];
      if (top === "checks" && isObject(entry) && CUTTABLE_CHECK_FIELDS.has(String(path[2])) && cutDeepest(entry, path.slice(2)))
        return true;
      delete table[String(a)];
      const names = this.unparsed[top];
      if (names !== "any") names.push(String(a));
      return true;
    }
    if (top === "version") this.doc.version = 1;
    else if (top === "name") this.doc.name = "unnamed";
    else if (!cutDeepest(this.doc, path)) delete this.doc[top];
    return true;
  }

  private cutInNode(id: string, branchId: string | null, rest: Path): boolean {
    const outer = this.nodes[id];
    if (branchId === null) {
      if (isObject(outer) && rest.length > 0 && CUTTABLE_NODE_FIELDS.has(String(rest[0])) && cutDeepest(outer, rest)) return true;
      return this.dropNode(id);
    }
    const branch = isObject(outer) && isObject(outer.branch) ? outer.branch : undefined;
    if (!branch) return this.dropNode(id);
    const node = branch[branchId];
    if (isObject(node) && rest.length > 0 && CUTTABLE_NODE_FIELDS.has(String(rest[0])) && cutDeepest(node, rest)) return true;
    if (node !== undefined) {
      delete branch[branchId];
      this.unparsed.nodes.push(opaqueNode(branchId, id, node));
    }
    return true;
  }

  private dropNode(id: string): boolean {
    const node = this.nodes[id];
    if (node === undefined) return true; // already dropped by an earlier issue
    delete this.nodes[id];
    this.unparsed.nodes.push(opaqueNode(id, null, node));
    if (isObject(node) && isObject(node.branch)) {
      for (const [bid, bnode] of Object.entries(node.branch)) this.unparsed.nodes.push(opaqueNode(bid, id, bnode));
    }
    return true;
  }
}

// When every node was cut, the rules still check the references between the cut
// nodes: the schema wants one node, so a stand-in is parsed and taken out again.
const STAND_IN = "__vouch_salvage_stand_in__";

function parseSound(doc: Obj) {
  const empty = isObject(doc.nodes) && Object.keys(doc.nodes).length === 0;
  const r = graphSchema.safeParse(empty ? { ...doc, nodes: { [STAND_IN]: { kind: "end" } } } : doc, { jitless: true });
  if (r.success && empty) delete r.data.nodes[STAND_IN];
  return r;
}

/** The sound part of a file the schema refused, or null when too little is sound to check. */
export function salvage(raw: unknown, issues: Issue[]): { graph: GraphFile; unparsed: Unparsed } | null {
  if (!isObject(raw) || !isObject(raw.nodes)) return null;
  const pruner = new Pruner(raw);
  let pending = issues;
  for (let round = 0; round < 8; round++) {
    for (const issue of pending) if (!pruner.apply(issue)) return null;
    const again = parseSound(pruner.doc);
    if (again.success) return { graph: again.data, unparsed: pruner.unparsed };
    pending = again.error.issues as unknown as Issue[];
  }
  return null;
}
