// Output schemas are checked with ajv 8 (a maintained JSON Schema validator;
// ADR 0001: do not write one). Making an Ajv instance costs tens of
// milliseconds, so one is shared, and each distinct schema is compiled once.
import { Ajv, type ValidateFunction } from "ajv";

export type SchemaCheck = (value: unknown) => string | null;

let shared: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
const CACHE_LIMIT = 512;

function ajv(): Ajv {
  return (shared ??= new Ajv({ allErrors: true, strict: false }));
}

export class OutputSchemas {
  /** Compiles now; throws with ajv's message when the schema itself is invalid. */
  compile(schema: Record<string, unknown>): SchemaCheck {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv().compile(schema);
      if (compiled.size >= CACHE_LIMIT) compiled.clear();
      compiled.set(key, validate);
    }
    const v = validate;
    return (value) => (v(value) ? null : ajv().errorsText(v.errors, { dataVar: "output" }));
  }
}
