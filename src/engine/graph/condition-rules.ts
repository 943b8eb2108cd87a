// Conditions are data, not code (docs/graph-language.md): validated at load, never eval'd.
//
//   { path: value }                    equality (string, number, boolean or null)
//   { path: { in: [v, ...] } }         membership
//   { path: { matches: "regex" } }     regex over the value as text
//   { path: { exists: true|false } }   the path resolves (or not)
//   { path: { equals: any } }          deep equality with any JSON value
//   { path: { gt|gte|lt|lte: n } }     numeric comparison
//   { all: [C, ...] } { any: [C, ...] } { not: C }
//
// Several keys in one object are all required (a conjunction).
// The rules without zod (ADR 0083): the fast graph check (schema-fast.ts) and the
// validator read them without loading the schema; condition-schema.ts wraps them for zod.
import { isObject } from "../json-object.ts";

export type Scalar = string | number | boolean | null;
export type PathTest =
  | Scalar
  | { in: unknown[] }
  | { matches: string }
  | { exists: boolean }
  | { equals: unknown }
  | { gt: number }
  | { gte: number }
  | { lt: number }
  | { lte: number };
export type Condition = { all?: Condition[]; any?: Condition[]; not?: Condition } & { [path: string]: unknown };

export const OPERATORS = ["in", "matches", "exists", "equals", "gt", "gte", "lt", "lte"] as const;
const PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.(?:[A-Za-z_][A-Za-z0-9_-]*|\d+))*$/;

export interface ConditionProblem {
  path: (string | number)[];
  message: string;
}

/** Every structural problem of a condition, with the path inside it. */
export function conditionProblems(value: unknown, at: (string | number)[] = []): ConditionProblem[] {
  if (!isObject(value)) {
    return [{ path: at, message: "a condition is a mapping such as { nodes.review.output.verdict: clean }" }];
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return [{ path: at, message: "a condition may not be empty" }];
  const problems: ConditionProblem[] = [];
  for (const key of keys) {
    const v = value[key];
    if (key === "all" || key === "any") {
      if (!Array.isArray(v) || v.length === 0) {
        problems.push({ path: [...at, key], message: `${key} takes a non-empty list of conditions` });
        continue;
      }
      v.forEach((c, i) => problems.push(...conditionProblems(c, [...at, key, i])));
    } else if (key === "not") {
      problems.push(...conditionProblems(v, [...at, key]));
    } else if (!PATH.test(key)) {
      problems.push({ path: [...at, key], message: `"${key}" is not a path (expected something like nodes.review.output.verdict)` });
    } else {
      problems.push(...testProblems(v, [...at, key]));
    }
  }
  return problems;
}

function testProblems(v: unknown, at: (string | number)[]): ConditionProblem[] {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return [];
  if (Array.isArray(v)) return [{ path: at, message: "a list is not a test; use { in: [...] } for membership" }];
  const obj = v as Record<string, unknown>;
  const ops = Object.keys(obj);
  if (ops.length !== 1) {
    return [{ path: at, message: `a test has exactly one operator (${OPERATORS.join(", ")})` }];
  }
  const op = ops[0]!;
  const arg = obj[op];
  switch (op) {
    case "in":
      return Array.isArray(arg) ? [] : [{ path: [...at, op], message: "in takes a list" }];
    case "matches":
      if (typeof arg !== "string") return [{ path: [...at, op], message: "matches takes a regular expression string" }];
      try {
        new RegExp(arg);
        return [];
      } catch (e) {
        return [{ path: [...at, op], message: `invalid regular expression: ${(e as Error).message}` }];
      }
    case "exists":
      return typeof arg === "boolean" ? [] : [{ path: [...at, op], message: "exists takes true or false" }];
    case "equals":
      return [];
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return typeof arg === "number" ? [] : [{ path: [...at, op], message: `${op} takes a number` }];
    default:
      return [{ path: [...at, op], message: `unknown operator "${op}" (known: ${OPERATORS.join(", ")})` }];
  }
}

/** The paths a condition reads, for reference checks at load. */
export function conditionPaths(value: unknown): string[] {
  if (!isObject(value)) return [];
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === "all" || key === "any") {
      if (Array.isArray(v)) v.forEach((c) => out.push(...conditionPaths(c)));
    } else if (key === "not") out.push(...conditionPaths(v));
    else out.push(key);
  }
  return out;
}
