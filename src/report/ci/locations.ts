// Where in the repository a problem is (ADR 0058): the `path:line[:col]: message` lines
// compilers, linters and test runners print, and a finding's `path` + `line` or its
// evidence's `at`, made relative to the repository root — and only when the file is
// inside it. A path is data from a check or a model: `..`, an absolute path elsewhere,
// control characters or a line number that is none give no location at all. Pure.
import { isAbsolute, posix, relative, resolve } from "node:path";

export interface SourceLocation {
  /** Relative to the repository root, with `/` separators; never `..`, never absolute. */
  path: string;
  line: number;
  column?: number;
}

/** Where a node's relative paths start, and how its worktree maps back to the repository. */
export interface PathBase {
  /** The repository root, absolute. */
  root: string;
  /** The node's working directory (node.started cwd), absolute; else the run's base folder. */
  cwd: string;
  /** The node's git worktree folder: a path inside it is the same path in the repository. */
  worktree?: string;
}

const MAX_LINE = 10_000_000;
const MAX_PATH = 1024;
/** `path:line[:col]: message` at the start of a line; the path holds no `:` and starts with no space. */
const LOCATED = /^([^\s:][^:\n]{0,1023}):(\d{1,8})(?::(\d{1,6}))?:\s*(.*)$/;
// C0/C1 controls, DEL, and the characters that reorder or split what is shown.
const UNSAFE_PATH = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

function inside(parent: string, child: string): string | null {
  const rel = relative(parent, child);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return null;
  return rel.split("\\").join("/");
}

/** A path as a check or a model wrote it, relative to the repository root; null when it is not in it. */
export function repositoryPath(raw: string, base: PathBase): string | null {
  const path = raw.trim();
  if (path === "" || path.length > MAX_PATH || UNSAFE_PATH.test(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return null;
  const absolute = resolve(base.cwd, path);
  if (base.worktree !== undefined) {
    const inWorktree = inside(base.worktree, absolute);
    if (inWorktree !== null) return posix.normalize(inWorktree);
  }
  return inside(base.root, absolute);
}

function lineNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= MAX_LINE ? n : undefined;
}

export function locationOf(path: string, line: unknown, column: unknown, base: PathBase): SourceLocation | null {
  const l = typeof line === "number" ? lineNumber(String(line)) : typeof line === "string" ? lineNumber(line) : undefined;
  if (l === undefined) return null;
  const p = repositoryPath(path, base);
  if (p === null) return null;
  const c = typeof column === "number" || typeof column === "string" ? lineNumber(String(column)) : undefined;
  return { path: p, line: l, ...(c !== undefined ? { column: c } : {}) };
}

/** `path:line` (a finding's evidence `at`) as a location. */
export function atLocation(at: unknown, base: PathBase): SourceLocation | null {
  if (typeof at !== "string") return null;
  const m = /^(.+?):(\d{1,8})(?::(\d{1,6}))?$/.exec(at.trim());
  return m ? locationOf(m[1]!, m[2], m[3], base) : null;
}

export interface LocatedLine {
  location: SourceLocation;
  message: string;
}

/** The `path:line[:col]: message` lines of a check's output whose path is in the repository,
 *  at most `limit`, in order, each location once. */
export function locatedLines(output: string, base: PathBase, limit: number): LocatedLine[] {
  const out: LocatedLine[] = [];
  const seen = new Set<string>();
  for (const line of output.split(/\r?\n/)) {
    if (out.length >= limit) break;
    const m = LOCATED.exec(line);
    if (!m) continue;
    const location = locationOf(m[1]!, m[2], m[3], base);
    if (location === null) continue;
    const key = `${location.path}:${location.line}:${location.column ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ location, message: m[4]!.trim() });
  }
  return out;
}
