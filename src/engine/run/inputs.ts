// Run inputs: --input values merged with declared defaults. Checked before
// anything starts (InputError, exit 2).
import { InputError } from "../errors.ts";
import type { GraphFile } from "../graph/schema.ts";

export function resolveInputs(graph: GraphFile, given: Record<string, unknown>): Record<string, unknown> {
  const declared = graph.inputs ?? {};
  const names = Object.keys(declared);
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(declared, name)) {
      throw new InputError(
        `unknown input "${name}": graph ${graph.name} declares ${names.length ? names.join(", ") : "no inputs"}`,
        names.length ? `pass one of: ${names.map((n) => `--input ${n}=VALUE`).join(", ")}` : "remove the --input flag",
      );
    }
  }
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const missing: string[] = [];
  for (const [name, def] of Object.entries(declared)) {
    if (Object.hasOwn(given, name)) out[name] = given[name];
    else if (def.default !== undefined) out[name] = def.default;
    else if (def.required) missing.push(name);
  }
  if (missing.length > 0) {
    const described = missing.map((n) => (declared[n]!.description ? `${n} (${declared[n]!.description})` : n));
    throw new InputError(
      `missing required input${missing.length === 1 ? "" : "s"}: ${described.join(", ")}`,
      `pass ${missing.map((n) => `--input ${n}=VALUE`).join(" ")}`,
    );
  }
  return out;
}
