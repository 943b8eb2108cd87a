// Whether the user's repository changed while a sitting ran (ADR 0044, defence
// in depth where the sandbox is off), as a pure function of two fingerprints:
// each record that differs, named, so the warning says exactly what to look at.
// vouch changes none of it back (it never writes the user's records); it says so.
import type { RepoFingerprint } from "../ports.ts";

/** The most changes one warning names. */
const SHOWN = 20;

/** What changed, in words ("config", "hooks", "ref refs/replace/… added"); empty when nothing did. */
export function repoChanges(before: RepoFingerprint, after: RepoFingerprint): string[] {
  const out: string[] = [];
  for (const name of new Set([...Object.keys(before.files), ...Object.keys(after.files)]))
    if (before.files[name] !== after.files[name]) out.push(name);
  for (const ref of new Set([...Object.keys(before.refs), ...Object.keys(after.refs)])) {
    const [a, b] = [
      Object.hasOwn(before.refs, ref) ? before.refs[ref] : undefined,
      Object.hasOwn(after.refs, ref) ? after.refs[ref] : undefined,
    ];
    if (a === b) continue;
    out.push(`${ref} ${a === undefined ? "added" : b === undefined ? "deleted" : "moved"}`);
  }
  return out.length <= SHOWN ? out : [...out.slice(0, SHOWN), `and ${out.length - SHOWN} more`];
}
