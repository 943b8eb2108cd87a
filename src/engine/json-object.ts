// The one test for "a JSON object": not null, not an array. Graph files, agent
// outputs and harness streams are all read through it.
export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
