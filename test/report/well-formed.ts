// What "the page stays well-formed" means for the report's HTML, checked on its
// text: every tag is one the report writes, every element is closed in order,
// no attribute is an event handler or loads anything, and the only script is the
// page's own. Text the run supplied can only ever be text: it is escaped, so
// every `<` left in the page starts a tag the report wrote.

/** Tags the report writes (the graph's SVG adds Graphviz's: `svgTags`). */
export const PAGE_TAGS = new Set(
  "html head meta title style body h1 h2 h3 h4 table thead tbody tr th td code span b p div section details summary pre ul ol li select option input script".split(
    " ",
  ),
);
export const SVG_TAGS = new Set("svg g title polygon path ellipse text polyline".split(" "));
const VOID = new Set(["meta", "input"]);

export interface Shape {
  problems: string[];
  /** Every script element's text. */
  scripts: string[];
}

export function pageShape(page: string, allowed: Set<string> = PAGE_TAGS): Shape {
  const problems: string[] = [];
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  // The stylesheet and the script hold `>` of their own; they are the report's constants.
  const body = page.replace(/<style>[\s\S]*?<\/style>/, "<style></style>").replace(/<script>[\s\S]*?<\/script>/g, "<script></script>");
  const stack: string[] = [];
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>|<(?![a-zA-Z/!])/g)) {
    if (m[2] === undefined) {
      problems.push(`a bare < at ${m.index}`);
      continue;
    }
    const [, close, name, attrs, self] = m;
    const tag = name!.toLowerCase();
    if (!allowed.has(tag)) problems.push(`tag <${tag}> at ${m.index}`);
    for (const a of attrs!.replace(/"[^"]*"|'[^']*'/g, '""').matchAll(/\s([a-zA-Z:-]+)/g)) {
      const n = a[1]!.toLowerCase();
      if (n.startsWith("on") || /^(src|href|xlink:href|action|formaction|srcset)$/.test(n)) problems.push(`attribute ${n} on <${tag}>`);
    }
    if (VOID.has(tag) || self === "/") continue;
    if (close === "") stack.push(tag);
    else if (stack.pop() !== tag) problems.push(`</${tag}> closes another element at ${m.index}`);
  }
  for (const m of body.matchAll(/<!(?!DOCTYPE html>)/g)) problems.push(`a comment or declaration at ${m.index}`);
  if (stack.length) problems.push(`unclosed: ${stack.join(" ")}`);
  return { problems, scripts };
}
