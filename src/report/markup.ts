// HTML built in small named pieces instead of long template literals: an element
// is its tag, its attributes (every value escaped here) and its children, which
// are markup already (text reaches them through html() in src/report/escape.ts).
import { html } from "./escape.ts";

export type Attributes = Record<string, string | number | boolean | null | undefined>;

/** ` a="1" b` from {a: 1, b: true}; false, null and undefined leave the attribute out. */
function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .filter(([, v]) => v !== false && v !== null && v !== undefined)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${html(v)}"`))
    .join("");
}

/** `<tag attrs>children</tag>`; children are markup, joined without separators. */
export function el(tag: string, attrs: Attributes, ...children: string[]): string {
  return `<${tag}${attributes(attrs)}>${children.join("")}</${tag}>`;
}

/** `<tag attrs>` with no end tag (input). */
export function voidEl(tag: string, attrs: Attributes): string {
  return `<${tag}${attributes(attrs)}>`;
}

/** One table row of cells of `cell` (td or th), each cell's text escaped. */
export function row(cell: "td" | "th", texts: readonly unknown[]): string {
  return el("tr", {}, ...texts.map((t) => el(cell, {}, html(t))));
}
