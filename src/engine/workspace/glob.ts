// Protect globs (ADR 0020): repository-relative paths, "/" separated, matched
// whole. `*` and `?` stay inside one path segment, `**` as a whole segment
// spans any number of them (none included), `[abc]` / `[a-z]` / `[!a]` are
// character classes. Nothing else is special, so a glob means one thing to
// everybody who reads it. Pure; a glob that cannot mean anything is refused at
// load with the reason.

export type CompiledGlob = { ok: true; test(path: string): boolean } | { ok: false; reason: string };

export function compileGlob(glob: string): CompiledGlob {
  const why = globProblem(glob);
  if (why !== null) return { ok: false, reason: why };
  const segments = glob.split("/").map((seg) => (seg === "**" ? GLOBSTAR : tokens(seg)));
  return { ok: true, test: (path) => matchPath(segments, path.split("/")) };
}

function globProblem(glob: string): string | null {
  if (glob.trim() === "") return "a glob may not be empty";
  if (glob.startsWith("/")) return "a glob is relative to the repository root: drop the leading /";
  if (glob.startsWith("!")) return "a glob cannot negate (!): list the paths it should match instead";
  if (glob.includes("\\")) return "a glob uses / between folders; \\ is not allowed";
  if (glob.includes("\0")) return "a glob may not contain a NUL character";
  const segments = glob.split("/");
  if (segments.some((s) => s === "")) return "a glob may not contain an empty folder (//, or a trailing /); use dir/** for a folder";
  if (segments.some((s) => s === "." || s === "..")) return "a glob may not contain . or .. folders";
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

// Matching is dynamic programming over segments and characters, never a regular
// expression: a glob is graph input, and "**/**/**/x" or "a*a*a*b" would make a
// backtracking matcher take exponential time on a long path.

type Token = { lit: string } | { any: true } | { star: true } | { set: string; negated: boolean };
const GLOBSTAR = "**" as const;
type Segment = Token[] | typeof GLOBSTAR;

function tokens(seg: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "*") out.push({ star: true });
    else if (c === "?") out.push({ any: true });
    else if (c === "[") {
      const close = seg.indexOf("]", i + 2);
      const body = seg.slice(i + 1, close);
      out.push(body.startsWith("!") ? { set: expand(body.slice(1)), negated: true } : { set: expand(body), negated: false });
      i = close;
    } else out.push({ lit: c });
  }
  return out;
}

/** "a-cx" → "abcx": the characters a class names. */
function expand(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === "-" && i + 2 < body.length) {
      for (let c = body.charCodeAt(i); c <= body.charCodeAt(i + 2); c++) out += String.fromCharCode(c);
      i += 2;
    } else out += body[i];
  }
  return out;
}

function one(t: Token, c: string): boolean {
  if ("lit" in t) return t.lit === c;
  if ("set" in t) return t.set.includes(c) !== t.negated;
  return true;
}

/** One segment: the classic wildcard table, O(tokens × characters). */
function matchSegment(p: Token[], s: string): boolean {
  let row = new Array<boolean>(s.length + 1).fill(false);
  row[0] = true;
  for (const t of p) {
    const next = new Array<boolean>(s.length + 1).fill(false);
    if ("star" in t) {
      let any = false;
      for (let j = 0; j <= s.length; j++) next[j] = any = any || row[j]!;
    } else for (let j = 1; j <= s.length; j++) next[j] = row[j - 1]! && one(t, s[j - 1]!);
    row = next;
  }
  return row[s.length]!;
}

/** Whole paths: `**` spans any number of segments (none included; a final `**` at least
 *  one, so `dir/**` is what is inside dir), O(glob segments × path segments). */
function matchPath(p: Segment[], s: string[]): boolean {
  let row = new Array<boolean>(s.length + 1).fill(false);
  row[0] = true;
  p.forEach((seg, i) => {
    const next = new Array<boolean>(s.length + 1).fill(false);
    if (seg === GLOBSTAR) {
      const atLeastOne = i === p.length - 1 ? 1 : 0;
      let any = false;
      for (let j = 0; j <= s.length; j++) {
        if (j - atLeastOne >= 0) any = any || row[j - atLeastOne]!;
        next[j] = any;
      }
    } else for (let j = 1; j <= s.length; j++) next[j] = row[j - 1]! && matchSegment(seg, s[j - 1]!);
    row = next;
  });
  return row[s.length]!;
}

/** The paths any of the globs match. */
export function matching(paths: readonly string[], globs: readonly CompiledGlob[]): string[] {
  return paths.filter((p) => globs.some((g) => g.ok && g.test(p)));
}
