// Protect globs (ADR 0020): repository-relative paths, "/" separated, matched
// whole. `*` and `?` stay inside one path segment, `**` as a whole segment
// spans any number of them (none included), `[abc]` / `[a-z]` / `[!a]` are
// character classes. Nothing else is special, so a glob means one thing to
// everybody who reads it. Pure; a glob that cannot mean anything is refused at
// load with the reason.

export type CompiledGlob = { ok: true; test(path: string): boolean } | { ok: false; reason: string };

const SPECIAL = /[\\^$.+(){}|]/g;

export function compileGlob(glob: string): CompiledGlob {
  const why = globProblem(glob);
  if (why !== null) return { ok: false, reason: why };
  const re = new RegExp(`^${globBody(glob)}$`, "s");
  return { ok: true, test: (path) => re.test(path) };
}

function globProblem(glob: string): string | null {
  if (glob.trim() === "") return "a protect glob may not be empty";
  if (glob.startsWith("/")) return "a protect glob is relative to the repository root: drop the leading /";
  if (glob.startsWith("!")) return "a protect glob cannot negate (!): list the paths to protect instead";
  if (glob.includes("\\")) return "a protect glob uses / between folders; \\ is not allowed";
  if (glob.includes("\0")) return "a protect glob may not contain a NUL character";
  const segments = glob.split("/");
  if (segments.some((s) => s === "" )) return "a protect glob may not contain an empty folder (//, or a trailing /); use dir/** for a folder";
  if (segments.some((s) => s === "." || s === "..")) return "a protect glob may not contain . or .. folders";
  if (segments.some((s) => s.includes("**") && s !== "**")) return "** must be a whole folder name (dir/**/x), not part of one";
  const open = unclosedClass(glob);
  if (open !== null) return `the character class starting at position ${open + 1} is never closed with ]`;
  return null;
}

function unclosedClass(glob: string): number | null {
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] !== "[") continue;
    const close = glob.indexOf("]", i + 2);
    if (close === -1 || glob.slice(i, close).includes("/")) return i;
    i = close;
  }
  return null;
}

function globBody(glob: string): string {
  const segments = glob.split("/");
  let out = "";
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === "**") out += last ? ".*" : "(?:[^/]*/)*";
    else out += segmentBody(seg) + (last ? "" : "/");
  });
  return out;
}

function segmentBody(seg: string): string {
  let out = "";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = seg.indexOf("]", i + 2);
      let body = seg.slice(i + 1, close);
      const negated = body.startsWith("!");
      if (negated) body = body.slice(1);
      out += `[${negated ? "^/" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = close;
    } else out += c.replace(SPECIAL, "\\$&");
  }
  return out;
}

/** The paths any of the globs match. */
export function matching(paths: readonly string[], globs: readonly CompiledGlob[]): string[] {
  return paths.filter((p) => globs.some((g) => g.ok && g.test(p)));
}
