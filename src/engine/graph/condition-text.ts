// A condition as one short line for pictures of the graph: `verdict = clean`,
// `a in [x, y]`, `(p and q)`. Long conditions are cut with "…".
import { OPERATORS } from "./condition-rules.ts";
import { isObject } from "../json-object.ts";

const SYMBOL: Record<string, string> = { gt: ">", gte: "≥", lt: "<", lte: "≤", matches: "~", equals: "=", in: "in" };

function value(v: unknown): string {
  return typeof v === "string" ? v : (JSON.stringify(v) ?? "null");
}

function test(path: string, t: unknown): string {
  if (isObject(t)) {
    const [op, arg] = Object.entries(t)[0] ?? [];
    if (op === "exists") return arg ? `${path} exists` : `${path} missing`;
    if (op === "matches") return `${path} ~ /${String(arg)}/`;
    if (op === "in" && Array.isArray(arg)) return `${path} in [${arg.map(value).join(", ")}]`;
    if (op && (OPERATORS as readonly string[]).includes(op)) return `${path} ${SYMBOL[op] ?? op} ${value(arg)}`;
  }
  return `${path} = ${value(t)}`;
}

function text(c: unknown): string {
  if (c === null || typeof c !== "object" || Array.isArray(c)) return "?";
  const parts: string[] = [];
  for (const [k, v] of Object.entries(c)) {
    if ((k === "all" || k === "any") && Array.isArray(v)) parts.push(`(${v.map(text).join(k === "all" ? " and " : " or ")})`);
    else if (k === "not") parts.push(`not ${text(v)}`);
    else parts.push(test(k, v));
  }
  return parts.join(" and ");
}

export function conditionText(condition: unknown, max = 60): string {
  const t = text(condition);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
