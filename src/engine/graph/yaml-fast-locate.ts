// Path problems placed from the fast path's own places (yaml-fast-places.ts, ADR 0091),
// by the same rules as yaml-positions.ts's offsetOf on the library's document. Null when
// a problem needs something the places do not hold: then the library places them all.
import type { GraphProblem } from "../errors.ts";
import type { PathProblem } from "./problem.ts";
import { pathKey, type Entry, type Place } from "./yaml-fast-places.ts";

/** The entries along `path` as far as the document goes (walk() in yaml-positions.ts). */
function steps(places: Map<string, Entry>, path: PathProblem["path"]): Entry[] | null {
  const root = places.get(pathKey([]));
  if (!root) return null;
  const out = [root];
  const sofar: (string | number)[] = [];
  for (const seg of path) {
    const cur = out.at(-1)!;
    let next: Entry | undefined;
    if (cur.kind === "map") next = places.get(pathKey([...sofar, String(seg)]));
    else if (cur.kind === "seq" && typeof seg === "number") next = places.get(pathKey([...sofar, seg]));
    if (!next) break;
    sofar.push(cur.kind === "map" ? String(seg) : seg);
    out.push(next);
  }
  return out;
}

function placeOf(places: Map<string, Entry>, p: PathProblem): Place | undefined {
  if (p.offset !== undefined) return undefined; // a "{{" inside a scalar: the library finds it
  const walked = steps(places, p.path);
  if (!walked) return undefined;
  const last = walked.at(-1)!;
  if (walked.length !== p.path.length + 1 || p.at === "key") return last.key ?? last.node;
  if (p.at === "parentKey") {
    const parent = walked.at(-2) ?? last;
    return parent.key ?? parent.node;
  }
  return last.kind === "empty" ? last.key : (last.node ?? last.key);
}

/** The problems with their places, or null when one of them is beyond this pass. `places` is
 *  the pass's result (fastPlaces), kept by the caller: located() is called once per checks
 *  entry name, and one pass per call would read the file that many times. */
export function fastLocated(file: string, places: Map<string, Entry> | null, list: PathProblem[]): GraphProblem[] | null {
  if (!places) return null;
  const out: GraphProblem[] = [];
  for (const p of list) {
    const at = placeOf(places, p);
    if (!at) return null;
    out.push({ file, line: at.line, col: at.col, message: p.message, ...(p.hint ? { hint: p.hint } : {}) });
  }
  return out;
}
