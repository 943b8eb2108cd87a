// Output schemas are checked with ajv 8 (a maintained JSON Schema validator;
// DESIGN.md says not to write one). Each schema is compiled once per run.
import { Ajv, type ValidateFunction } from "ajv";

export type SchemaCheck = (value: unknown) => string | null;

export class OutputSchemas {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly cache = new Map<object, ValidateFunction>();

  /** Compiles now; throws with ajv's message when the schema itself is invalid. */
  compile(schema: Record<string, unknown>): SchemaCheck {
    let validate = this.cache.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(schema, validate);
    }
    const v = validate;
    return (value) => (v(value) ? null : this.ajv.errorsText(v.errors, { dataVar: "output" }));
  }
}
