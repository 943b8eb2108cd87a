// Rendering templates against run data. A missing key is an error, never an
// empty string (docs/graph-language.md). Rendered text goes into prompts and outputs only:
// commands never see it (docs/architecture.md §7).
import { parseTemplate, type ExprSegment, type FilterName, type ParsedTemplate } from "./parse.ts";
import { TemplateError } from "../errors.ts";

export type Scope = Record<string, unknown>;

/** Resolve a dotted path in a scope; `found` is false when any step is missing. */
export function resolvePath(scope: unknown, path: readonly string[]): { found: boolean; value: unknown; missingAt?: string } {
  let cur: unknown = scope;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur as object, key)) {
      return { found: false, value: undefined, missingAt: path.slice(0, i + 1).join(".") };
    }
    cur = (cur as Record<string, unknown>)[key];
    if (cur === undefined) return { found: false, value: undefined, missingAt: path.slice(0, i + 1).join(".") };
  }
  return { found: true, value: cur };
}

export function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function applyFilter(filter: FilterName, value: unknown): string {
  switch (filter) {
    case "json":
      return JSON.stringify(value);
    case "quote":
      return JSON.stringify(stringify(value));
    case "lines":
      return Array.isArray(value) ? value.map(stringify).join("\n") : stringify(value);
  }
}

function evaluate(expr: ExprSegment, scope: Scope): unknown {
  const r = resolvePath(scope, expr.path);
  if (!r.found) {
    throw new TemplateError(`{{ ${expr.source} }}: "${r.missingAt}" is not there`);
  }
  let value: unknown = r.value;
  for (const f of expr.filters) value = applyFilter(f, value);
  return value;
}

/** Parsed templates, kept: a map renders the same prompt once per branch. Bounded, since a
 *  template is a graph's text (a few hundred at most), read only once parsed. */
const PARSED_KEPT = 512;
const parsedTemplates = new Map<string, ParsedTemplate>();
function parsedOf(template: string): ParsedTemplate {
  let p = parsedTemplates.get(template);
  if (p === undefined) {
    p = parseTemplate(template);
    if (parsedTemplates.size >= PARSED_KEPT) parsedTemplates.delete(parsedTemplates.keys().next().value!);
    parsedTemplates.set(template, p);
  }
  return p;
}

/** Render a template to text. */
export function renderText(template: string, scope: Scope): string {
  const parsed = parsedOf(template);
  if (parsed.problems.length > 0) throw new TemplateError(parsed.problems[0]!.message);
  let out = "";
  for (const seg of parsed.segments) out += seg.kind === "text" ? seg.text : stringify(evaluate(seg, scope));
  return out;
}

/** A template that is exactly one expression keeps the value's type (a list stays a list);
 *  anything else renders to text. Used for outputs, stamps and `exhausted`. */
export function renderValue(template: string, scope: Scope): unknown {
  const parsed = parsedOf(template);
  if (parsed.problems.length > 0) throw new TemplateError(parsed.problems[0]!.message);
  const meaningful = parsed.segments.filter((s) => s.kind === "expr" || s.text.trim() !== "");
  if (meaningful.length === 1 && meaningful[0]!.kind === "expr") return evaluate(meaningful[0]!, scope);
  return renderText(template, scope);
}

/** Render every string inside a JSON-like value. */
export function renderDeep(value: unknown, scope: Scope): unknown {
  if (typeof value === "string") return renderValue(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, scope)]));
  }
  return value;
}
