// JSON with comments and trailing commas (deno.jsonc), read as JSON: one pass
// that drops comments and one that drops trailing commas, both aware of strings,
// each linear in the text. Anything still not JSON is a note, never a throw.

function outsideStrings(text: string, visit: (i: number) => number | undefined): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const skipTo = visit(i);
    if (skipTo === undefined) out += c;
    else i = skipTo - 1;
  }
  return out;
}

function withoutComments(text: string): string {
  return outsideStrings(text, (i) => {
    if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      return end === -1 ? text.length : end;
    }
    if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      return end === -1 ? text.length : end + 2;
    }
    return undefined;
  });
}

function withoutTrailingCommas(text: string): string {
  return outsideStrings(text, (i) => {
    if (text[i] !== ",") return undefined;
    let j = i + 1;
    while (j < text.length && /\s/.test(text[j]!)) j++;
    return text[j] === "}" || text[j] === "]" ? i + 1 : undefined;
  });
}

export function parseJsonc(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(withoutTrailingCommas(withoutComments(text))) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
