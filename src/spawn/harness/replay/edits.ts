// The file edits a recorded sitting made, replayed into the sitting's working
// directory (ADR 0021). A fixture `N.I.jsonl` may have a sidecar `N.I.edits.json`:
//   {"edits": [{"path": "src/a.js", "content": "…"},
//              {"path": "bin/run", "content": "…", "executable": true},
//              {"path": "old.txt", "delete": true}]}
// A fixture without a sidecar edits nothing (every recording made before edits
// were recorded plays as it did). The stream stays exactly what Claude printed;
// the edits are the effect of its Write/Edit tools, recorded as results, so a
// replay does not depend on the old file matching an Edit's old_string.
//
// A recording is data, not trusted code: every path is checked before any file
// is touched (all or nothing) — no absolute path, no `..`, nothing under `.git`,
// and no path that reaches out of the folder through a symlink.
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { InputError } from "../../../engine/errors.ts";
import { MAX_INPUT_ENV, readLimited } from "../../read-limited.ts";

export type ReplayEdit = { path: string; content: string; executable?: boolean } | { path: string; delete: true };

const SHAPE = 'expected {"edits": [{"path", "content", "executable"?} | {"path", "delete": true}]}';

/** The sidecar's edits, or what is wrong with it. Checked by hand: the spawn seam loads no schema library. */
export function parseEdits(raw: unknown): ReplayEdit[] | string {
  if (!isRecord(raw) || !sameKeys(raw, ["edits"], []) || !Array.isArray(raw.edits)) return `(top): ${SHAPE}`;
  const out: ReplayEdit[] = [];
  for (const [i, e] of raw.edits.entries()) {
    const bad = `edits.${i}: ${SHAPE}`;
    if (!isRecord(e) || typeof e.path !== "string") return bad;
    if (sameKeys(e, ["path", "delete"], []) && e.delete === true) out.push({ path: e.path, delete: true });
    else if (
      sameKeys(e, ["path", "content"], ["executable"]) &&
      typeof e.content === "string" &&
      (e.executable === undefined || typeof e.executable === "boolean")
    ) {
      out.push(
        e.executable === undefined ? { path: e.path, content: e.content } : { path: e.path, content: e.content, executable: e.executable },
      );
    } else return bad;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Own keys are exactly `required` plus any of `optional` (a misspelt field is refused, not ignored). */
function sameKeys(v: Record<string, unknown>, required: string[], optional: string[]): boolean {
  const keys = Object.keys(v);
  return required.every((k) => Object.hasOwn(v, k)) && keys.every((k) => required.includes(k) || optional.includes(k));
}

/** The sidecar a fixture's edits are recorded in: the fixture's name with `.edits.json`. */
export function editsPathFor(fixture: string): string {
  return fixture.replace(/\.jsonl?$/, "") + ".edits.json";
}

/** Thrown for a sidecar that cannot be read or names a path vouch will not write. */
export class ReplayEditError extends Error {
  override name = "ReplayEditError";
}

/** The recorded edits of a fixture; [] when it has no sidecar. */
export function readEdits(fixture: string, maxBytes: number): ReplayEdit[] {
  const path = editsPathFor(fixture);
  if (!existsSync(path)) return [];
  let raw: unknown;
  try {
    const text = new TextDecoder().decode(
      readLimited(path, { what: `replay edits ${path}`, maxBytes, raise: `set ${MAX_INPUT_ENV} to read a larger file` }),
    );
    raw = JSON.parse(text);
  } catch (e) {
    const why = e instanceof InputError ? e.message : `cannot read replay edits ${path}: ${(e as Error).message}`;
    throw new ReplayEditError(why);
  }
  const edits = parseEdits(raw);
  if (typeof edits === "string") throw new ReplayEditError(`replay edits ${path}: ${edits}`);
  return edits;
}

/** Why a recorded path is refused, or null when it is a plain path inside the folder. Pure. */
export function pathProblem(path: string): string | null {
  if (path === "") return "is empty";
  if (path.includes("\0")) return "contains a NUL byte";
  if (isAbsolute(path) || path.startsWith("\\")) return "is absolute";
  const parts = path.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
  if (parts.length === 0) return "names the folder itself";
  if (parts.includes("..")) return "climbs out with ..";
  if (parts.some((p) => p.toLowerCase() === ".git")) return "is inside .git";
  return null;
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The absolute file an edit writes, after following every symlink already on its way.
 *  A delete follows the links of the folders on the way, never the last name: deleting a
 *  recorded symlink removes the link, not what it points at. */
function resolveTarget(rootReal: string, path: string, keepLast = false): string {
  const parts = path.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
  let at = rootReal;
  for (const [i, part] of parts.entries()) {
    at = join(at, part);
    if (keepLast && i === parts.length - 1) break;
    let isLink: boolean;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch {
      continue; // does not exist yet: nothing below it can be a link
    }
    if (!isLink) continue;
    let real: string;
    try {
      real = realpathSync(at);
    } catch {
      throw new ReplayEditError(`replay edit "${path}" goes through a dangling symlink`);
    }
    if (!inside(rootReal, real)) throw new ReplayEditError(`replay edit "${path}" leaves the folder through a symlink`);
    // A link to the folder's own .git is no way round the .git rule.
    if (
      relative(rootReal, real)
        .split(sep)
        .some((p) => p.toLowerCase() === ".git")
    ) {
      throw new ReplayEditError(
        `replay edit "${path}" is inside .git through a symlink: a recorded path must be relative and stay inside the folder`,
      );
    }
    at = real;
  }
  return at;
}

/** Applies the edits in `cwd`: every path is checked first, then the files are written in order. */
export function applyEdits(cwd: string, edits: readonly ReplayEdit[]): void {
  if (edits.length === 0) return;
  const rootReal = realpathSync(cwd);
  const targets = edits.map((edit) => {
    const problem = pathProblem(edit.path);
    if (problem)
      throw new ReplayEditError(`replay edit "${edit.path}" ${problem}: a recorded path must be relative and stay inside the folder`);
    return resolveTarget(rootReal, edit.path, "delete" in edit);
  });
  edits.forEach((edit, i) => {
    const target = targets[i]!;
    if ("delete" in edit) {
      rmSync(target, { force: true });
      return;
    }
    mkdirSync(join(target, ".."), { recursive: true });
    writeFileSync(target, edit.content);
    if (edit.executable) chmodSync(target, 0o755);
  });
}
