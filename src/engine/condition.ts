// Evaluating conditions (data, not code; see graph/condition-schema.ts) against
// run data. A path that is not there makes its test false (except
// `exists: false`): a condition never throws at run time, it only answers.
import { resolvePath, stringify } from "./template/render.ts";
import { isObject } from "./json-object.ts";

/** Structural equality of JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

function testValue(found: boolean, value: unknown, test: unknown): boolean {
  if (!isObject(test)) return found && jsonEqual(value, test);
  const [op] = Object.keys(test);
  const arg = test[op!];
  if (op === "exists") return found === arg;
  if (!found) return false;
  switch (op) {
    case "in":
      return Array.isArray(arg) && arg.some((v) => jsonEqual(v, value));
    case "matches":
      return new RegExp(String(arg)).test(stringify(value));
    case "equals":
      return jsonEqual(value, arg);
    case "gt":
      return typeof value === "number" && value > (arg as number);
    case "gte":
      return typeof value === "number" && value >= (arg as number);
    case "lt":
      return typeof value === "number" && value < (arg as number);
    case "lte":
      return typeof value === "number" && value <= (arg as number);
    default:
      return false;
  }
}

/** True when every key of the condition holds (several keys are a conjunction). */
export function evaluateCondition(condition: Record<string, unknown>, scope: Record<string, unknown>): boolean {
  for (const [key, v] of Object.entries(condition)) {
    if (key === "all") {
      if (!(v as Record<string, unknown>[]).every((c) => evaluateCondition(c, scope))) return false;
    } else if (key === "any") {
      if (!(v as Record<string, unknown>[]).some((c) => evaluateCondition(c, scope))) return false;
    } else if (key === "not") {
      if (evaluateCondition(v as Record<string, unknown>, scope)) return false;
    } else {
      const r = resolvePath(scope, key.split("."));
      if (!testValue(r.found, r.value, v)) return false;
    }
  }
  return true;
}
