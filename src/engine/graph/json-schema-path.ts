// What a node's output JSON Schema says about a path inside the output, so a
// map over a field typed as a string, or a template naming a field the schema
// forbids, is refused at load. Only plain `properties` / `items` /
// `additionalProperties` are followed; anything cleverer ($ref, anyOf, ...) is "unknown".
import { isObject } from "../json-object.ts";

export type SchemaFact =
  | { kind: "unknown" }
  /** The schema forbids this field: `additionalProperties: false` and not in `properties`. */
  | { kind: "absent"; field: string; known: string[] }
  /** The schema types the value at the path (a step may have stopped early at a scalar). */
  | { kind: "typed"; types: string[]; depth: number };

function typesOf(schema: Record<string, unknown>): string[] | undefined {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t) && t.every((x) => typeof x === "string")) return t as string[];
  return undefined;
}

export function schemaAt(schema: unknown, path: readonly string[]): SchemaFact {
  let cur: unknown = schema;
  for (let i = 0; i < path.length; i++) {
    if (!isObject(cur)) return { kind: "unknown" };
    const types = typesOf(cur);
    if (types && !types.includes("object") && !types.includes("array")) return { kind: "typed", types, depth: i };
    const seg = path[i]!;
    const props = isObject(cur.properties) ? cur.properties : undefined;
    if (props && Object.hasOwn(props, seg)) cur = props[seg];
    else if (/^\d+$/.test(seg) && isObject(cur.items)) cur = cur.items;
    else if (isObject(cur.additionalProperties)) cur = cur.additionalProperties;
    else if (cur.additionalProperties === false && props && !/^\d+$/.test(seg))
      return { kind: "absent", field: seg, known: Object.keys(props) };
    else return { kind: "unknown" };
  }
  if (!isObject(cur)) return { kind: "unknown" };
  const types = typesOf(cur);
  return types ? { kind: "typed", types, depth: path.length } : { kind: "unknown" };
}
