// The first half of loading any vouch YAML file (a graph, a checks file): parse
// keeping positions, YAML-level problems, and the plain value. Shared by the
// graph loader and the checks-file loader so both report the same way.
import type { PathProblem } from "./problem.ts";
import { fastYamlValue } from "./yaml-fast.ts";
import { fastLocated } from "./yaml-fast-locate.ts";
import { fastPlaces, type Entry } from "./yaml-fast-places.ts";
import type * as Library from "./yaml-library-front.ts";
import type { YamlFront } from "./yaml-library-front.ts";

export type { YamlFront };

/** The yaml library's reading (yaml-library-front.ts), loaded on first use: a file the fast
 *  path reads without a problem never loads the library (ADR 0074). A synchronous require,
 *  because loading is synchronous; the bundle initialises the module only when called. */
export function libraryFront(file: string, text: string, emptyHint: string): YamlFront {
  return (require("./yaml-library-front.ts") as typeof Library).libraryFront(file, text, emptyHint);
}

/** Bun's own reader when the text is in the subset both readers agree on (ADR 0074): no
 *  problem, the same value. Problems found later are placed by the fast path's own pass
 *  (ADR 0091); the yaml library's document is built only when that pass is unsure. */
export function yamlFront(file: string, text: string, emptyHint: string): YamlFront {
  const fast = fastYamlValue(text);
  if (fast === null) return libraryFront(file, text, emptyHint);
  let library: YamlFront | undefined;
  let places: Map<string, Entry> | null | undefined;
  const located = (list: PathProblem[]) => {
    if (list.length === 0) return [];
    places = places === undefined ? fastPlaces(text) : places;
    return fastLocated(file, places, list) ?? (library ??= libraryFront(file, text, emptyHint)).located(list);
  };
  return { problems: [], raw: fast.value, located };
}
