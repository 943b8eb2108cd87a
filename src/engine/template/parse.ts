// Templates: {{ path | filter | filter }}. A path is dotted segments from a root
// (inputs.x, nodes.id.output.field, item.id, index, error); digits index lists.
// Parsing is separate from rendering so the validator can check references at load.

export const FILTERS = ["json", "quote", "lines"] as const;
export type FilterName = (typeof FILTERS)[number];

export interface TextSegment {
  kind: "text";
  text: string;
}
export interface ExprSegment {
  kind: "expr";
  /** The expression as written, without braces. */
  source: string;
  path: string[];
  filters: FilterName[];
  /** Offset of "{{" in the template text. */
  offset: number;
}
export type Segment = TextSegment | ExprSegment;

export interface TemplateProblem {
  offset: number;
  message: string;
}
export interface ParsedTemplate {
  segments: Segment[];
  problems: TemplateProblem[];
}

const SEGMENT = /^(?:[A-Za-z_][A-Za-z0-9_-]*|\d+)$/;

export function parseTemplate(text: string): ParsedTemplate {
  const segments: Segment[] = [];
  const problems: TemplateProblem[] = [];
  let pos = 0;
  while (pos < text.length) {
    const open = text.indexOf("{{", pos);
    if (open < 0) {
      segments.push({ kind: "text", text: text.slice(pos) });
      break;
    }
    if (open > pos) segments.push({ kind: "text", text: text.slice(pos, open) });
    const close = text.indexOf("}}", open + 2);
    if (close < 0) {
      problems.push({ offset: open, message: 'a template opened with "{{" is never closed with "}}"' });
      segments.push({ kind: "text", text: text.slice(open) });
      break;
    }
    const source = text.slice(open + 2, close).trim();
    const expr = parseExpression(source, open);
    if ("message" in expr) problems.push(expr);
    else segments.push(expr);
    pos = close + 2;
  }
  return { segments, problems };
}

function parseExpression(source: string, offset: number): ExprSegment | TemplateProblem {
  if (source === "") return { offset, message: "an empty template {{ }} names nothing" };
  const [head = "", ...rest] = source.split("|").map((s) => s.trim());
  const path = head.split(".");
  if (!path.every((s) => SEGMENT.test(s)) || /^\d/.test(path[0]!)) {
    return { offset, message: `"${head}" is not a path (expected something like inputs.name or nodes.id.output.field)` };
  }
  const filters: FilterName[] = [];
  for (const f of rest) {
    if (!(FILTERS as readonly string[]).includes(f)) {
      return { offset, message: `unknown filter "${f}" (known: ${FILTERS.join(", ")})` };
    }
    filters.push(f as FilterName);
  }
  return { kind: "expr", source, path, filters, offset };
}

/** Every expression in a template (for reference checks). */
export function templateExpressions(text: string): ExprSegment[] {
  return parseTemplate(text).segments.filter((s): s is ExprSegment => s.kind === "expr");
}
