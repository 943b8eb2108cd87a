// A sub-graph's inputs at run time: what its graph node passed (rendered), merged
// with the sub-graph's declared defaults. The loader already refused an unknown
// name and a missing required input (ADR 0024), so what is left here is defence:
// a missing required input that a run still meets is an error of the node, never
// a silently empty value.
import { TemplateError } from "../errors.ts";
import type { GraphFile } from "../graph/schema.ts";
import { isObject } from "../json-object.ts";

export function subgraphInputs(graph: GraphFile, passed: unknown): Record<string, unknown> {
  const given = isObject(passed) ? (passed as Record<string, unknown>) : {};
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, def] of Object.entries(graph.inputs ?? {})) {
    if (Object.hasOwn(given, name)) out[name] = given[name];
    else if (def.default !== undefined) out[name] = def.default;
    else if (def.required) throw new TemplateError(`sub-graph ${graph.name} needs input "${name}" and was not given it`);
  }
  return out;
}
