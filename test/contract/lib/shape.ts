// The normalized shape of a CLI's JSON output, for the tests that hold the
// recorded fixtures to what the pinned CLI prints today: types, subtypes and
// keys, never ids, timestamps, costs or text. A CLI upgrade that renames a
// field or adds an event type changes the shape; a new session id does not.

export interface ShapeOptions {
  /** Keys whose value is a dictionary keyed by data (e.g. claude's modelUsage by model name): their keys are not compared. */
  dictionaries?: readonly string[];
  /** How deep to describe nested objects (default 3). */
  depth?: number;
}

/** A stable description of one value: "string", "number", {key: shape}, [shapes]. */
export function shapeOf(value: unknown, o: ShapeOptions = {}, depth = o.depth ?? 3): unknown {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    const seen = new Map<string, unknown>();
    for (const item of value) {
      const s = shapeOf(item, o, depth - 1);
      seen.set(JSON.stringify(s), s);
    }
    return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s);
  }
  if (typeof value !== "object") return typeof value;
  if (depth <= 0) return "object";
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    // type and subtype are the vocabulary itself: keep their values.
    let s: unknown;
    if ((key === "type" || key === "subtype") && typeof v === "string") s = `=${v}`;
    else if (o.dictionaries?.includes(key)) s = "dictionary";
    else s = shapeOf(v, o, depth - 1);
    // defineProperty: a key such as __proto__ is data here, never the prototype.
    Object.defineProperty(out, key, { value: s, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The shapes of an NDJSON output, one per distinct line shape, in first-seen order. */
export function linesShape(ndjson: string, o: ShapeOptions = {}): unknown[] {
  const seen = new Map<string, unknown>();
  for (const line of ndjson.split("\n")) {
    if (line.trim() === "") continue;
    const s = shapeOf(JSON.parse(line), o);
    const key = JSON.stringify(s);
    if (!seen.has(key)) seen.set(key, s);
  }
  return [...seen.values()];
}
