// From a path into the parsed value back to the YAML source: line and column.
// The validator names problems by path (problem.ts); this walks the yaml
// library's document (keeping aliases and merge keys in mind) to the node.
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair, type YAMLMap } from "yaml";
import type { Path, PathProblem } from "./problem.ts";

export interface Position {
  line: number;
  col: number;
}

interface Step {
  node: unknown;
  /** The pair whose value is `node` (absent for the root and list items). */
  pair?: Pair;
}

/** The string a key becomes in the JS value (yaml's toJS stringifies keys). */
export function keyString(key: unknown): string | undefined {
  if (isScalar(key)) {
    if (typeof key.value === "symbol") return undefined; // the merge key "<<"
    return key.value === null ? "" : String(key.value);
  }
  return undefined;
}

function resolve(doc: Document, node: unknown, depth = 0): unknown {
  if (isAlias(node) && depth < 32) return resolve(doc, node.resolve(doc), depth + 1);
  return node;
}

function isMergePair(pair: Pair): boolean {
  return isScalar(pair.key) && typeof pair.key.value === "symbol";
}

interface PairIndex {
  /** Own keys, the last of duplicates winning as in the value. */
  own: Map<string, Pair>;
  /** The merge pairs ("<<: *base"), in order. */
  merges: Pair[];
}

/** Built once per mapping: a lookup per problem that scanned the mapping made
 *  40,000 unknown fields in one node quadratic (tens of seconds). */
const indexes = new WeakMap<YAMLMap, PairIndex>();
function indexOf(map: YAMLMap): PairIndex {
  let index = indexes.get(map);
  if (!index) {
    index = { own: new Map(), merges: [] };
    for (const pair of map.items as Pair[]) {
      const k = isMergePair(pair) ? undefined : keyString(pair.key);
      if (k !== undefined) index.own.set(k, pair);
      else if (isMergePair(pair)) index.merges.push(pair);
    }
    indexes.set(map, index);
  }
  return index;
}

/** The pair for `key` in a mapping: its own keys first (the last of duplicates, as the
 *  value keeps the last), then merged ones ("<<: *base"). */
function findPair(doc: Document, map: unknown, key: string, depth = 0): Pair | undefined {
  if (!isMap(map) || depth > 16) return undefined;
  const index = indexOf(map);
  const own = index.own.get(key);
  if (own) return own;
  for (const pair of index.merges) {
    const sources = resolve(doc, pair.value);
    const list = isSeq(sources) ? sources.items.map((s) => resolve(doc, s)) : [sources];
    for (const source of list) {
      const found = findPair(doc, source, key, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** Walk as far along `path` as the document goes. */
export function walk(doc: Document, path: Path): Step[] {
  const steps: Step[] = [{ node: resolve(doc, doc.contents) }];
  for (const seg of path) {
    const cur = steps[steps.length - 1]!.node;
    if (isMap(cur)) {
      const pair = findPair(doc, cur, String(seg));
      if (!pair) break;
      steps.push({ node: resolve(doc, pair.value), pair });
    } else if (isSeq(cur) && typeof seg === "number" && seg >= 0 && seg < cur.items.length) {
      steps.push({ node: resolve(doc, cur.items[seg]) });
    } else break;
  }
  return steps;
}

function start(node: unknown): number | undefined {
  const range = (node as Node | null)?.range;
  return range ? range[0] : undefined;
}

/** A scalar with no text (`prompt:` and nothing after it) has no place of its own. */
function isEmptyScalar(node: unknown): boolean {
  return isScalar(node) && node.value === null && !!node.range && node.range[0] === node.range[1];
}

/** The offset of the k-th "{{" of a string value in the scalar's source text. */
function offsetInScalar(node: unknown, valueOffset: number, source: string): number | undefined {
  if (!isScalar(node) || typeof node.value !== "string" || !node.range) return undefined;
  const before = node.value.slice(0, valueOffset);
  const nth = before.split("{{").length - 1;
  const text = source.slice(node.range[0], node.range[1]);
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf("{{", at + 1);
    if (at < 0) return undefined;
  }
  return node.range[0] + at;
}

/** The source offset a problem points at. */
export function offsetOf(doc: Document, source: string, problem: Pick<PathProblem, "path" | "at" | "offset">): number {
  const steps = walk(doc, problem.path);
  const reachedAll = steps.length === problem.path.length + 1;
  const last = steps[steps.length - 1]!;
  const keyOf = (step: Step | undefined) => start(step?.pair?.key);
  let offset: number | undefined;
  if (!reachedAll) {
    // The path goes past what is written: point at the deepest entry that is.
    offset = keyOf(last) ?? start(last.node);
  } else if (problem.at === "key") {
    offset = keyOf(last) ?? start(last.node);
  } else if (problem.at === "parentKey") {
    const parent = steps[steps.length - 2] ?? last;
    offset = keyOf(parent) ?? start(parent.node);
  } else {
    if (problem.offset !== undefined) offset = offsetInScalar(last.node, problem.offset, source);
    if (offset === undefined) offset = isEmptyScalar(last.node) ? keyOf(last) : (start(last.node) ?? keyOf(last));
  }
  return offset ?? 0;
}

export function positionOf(lineCounter: LineCounter, offset: number): Position {
  const { line, col } = lineCounter.linePos(offset);
  return { line: Math.max(1, line), col: Math.max(1, col) };
}
