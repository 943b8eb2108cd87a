// A sealed process's own /tmp (ADR 0073): a scratch folder of the host's bound
// writable at /tmp, so what a compiler, a test runner or mktemp writes there
// stays the process's and goes with it, and the host's /tmp is not seen. What
// the process was told about under the host's /tmp (a path in its argv or its
// environment: the script it runs, a path a check's shell text names, vouch's
// handover files, HOME, an entry of PATH) is bound back read-only, so it still
// finds it; the rest is not there (a path the command builds, `$D/x`, is not
// known to be needed).
import { lstatSync, realpathSync, statSync } from "node:fs";
import { dirname } from "node:path";

/** Where a sealed process has its own writable temporary folder. */
export const PRIVATE_TMP = "/tmp";

/** Strictly inside /tmp: /tmp itself (or a parent) would cover the process's own. */
export function underTmp(path: string): boolean {
  return path.startsWith(`${PRIVATE_TMP}/`) && path.length > PRIVATE_TMP.length + 1;
}

/** A /tmp path inside a longer text (a check's shell command: `test -f /tmp/x/flag && …`). */
const IN_TEXT = /\/tmp\/[^\s'"`;|&<>(){}$:,=*?[\]]+/g;

/** The host's folders under /tmp that `words` name (a word, one entry of a colon-separated list such
 *  as PATH, or a /tmp path in a shell command's text), as the file system has them: a file's folder
 *  (a file right in /tmp: the file, when it is a whole word), a folder itself. */
export function namedUnderTmp(words: Iterable<string>): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  // Words come from inputs, items and a graph's text (hostile): each distinct absolute path costs one
  // realpath, and the environment they come from is bounded (inputs past 32 KiB, or 128 KiB in all,
  // get no variable). No cap on the count: a cap would let an input crowd out vouch's own files.
  const take = (part: string, topFile: boolean) => {
    if (!part.startsWith("/") || seen.has(part)) return;
    seen.add(part);
    add(out, part, topFile);
  };
  for (const word of words) {
    for (const part of word.split(":")) take(part, true);
    // In a command's text only what is inside a folder of /tmp: a file right in /tmp a command
    // names (`> /tmp/out`) is more likely its own output than something it must read.
    for (const part of word.match(IN_TEXT) ?? []) take(part, false);
  }
  return [...out];
}

function add(out: Set<string>, path: string, topFile: boolean): void {
  if (!path.startsWith("/") || path.includes("\0")) return;
  try {
    // Through a link (a clone in /tmp whose node_modules links out of it): the process opens the
    // path as named, so the real folder before the first link is bound back, and the link in it
    // resolves inside the seal as outside (a target out of /tmp is the host's, read-only; a hidden
    // one stays hidden at its own place).
    const before = folderBeforeLink(path);
    if (before !== undefined) {
      if (before !== null && underTmp(before)) out.add(before);
      return;
    }
    const real = realpathSync(path);
    const top = dirname(real) === PRIVATE_TMP;
    if (statSync(real).isDirectory()) {
      if (underTmp(real)) out.add(real);
    } else if (!top) {
      if (underTmp(dirname(real))) out.add(dirname(real));
    } else if (topFile) out.add(real);
  } catch {
    // not there: nothing to bind
  }
}

/** The paths to bind back: none at or inside a writable path (seen already, and a read-only bind
 *  at the same path would win over the writable one) or a hidden one (a name inside the hidden
 *  ledger, from a graph's variable or a check's text, would be bound back inside the hidden folder). */
export function toBindBack(paths: readonly string[], spec: { writable: readonly string[]; hidden: readonly string[] }): string[] {
  const inside = (p: string, w: string) => p === w || p.startsWith(w.endsWith("/") ? w : `${w}/`);
  return paths.filter((p) => ![...spec.writable, ...spec.hidden].some((w) => inside(p, w)));
}

/** Undefined when no part of `path` under /tmp is a link (or the path has `.`/`..` parts: the
 *  real path decides then); else the folder that holds the first link, null when that is /tmp. */
function folderBeforeLink(path: string): string | null | undefined {
  const parts = path.split("/").filter((p) => p !== "");
  if (parts[0] !== "tmp" || parts.some((p) => p === "." || p === "..")) return undefined;
  let at = "/tmp";
  for (const part of parts.slice(1)) {
    const next = `${at}/${part}`;
    let link: boolean;
    try {
      link = lstatSync(next).isSymbolicLink();
    } catch {
      return undefined; // not there: the real path's reading says nothing is bound
    }
    if (link) return at === "/tmp" ? null : at;
    at = next;
  }
  return undefined;
}
