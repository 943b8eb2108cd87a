// The structure zod 4 keeps on `schema.def`, typed loosely on purpose: the two walks
// over the graph schema (schema-walk.ts for did-you-mean, source-form.ts for writing a
// loaded graph back) read only these fields, and zod's own types for them are internal.
export interface Def {
  type: string;
  shape?: Record<string, Schema>;
  valueType?: Schema;
  element?: Schema;
  options?: Schema[];
  discriminator?: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  getter?: () => Schema;
  values?: unknown[];
}

export interface Schema {
  def: Def;
}
