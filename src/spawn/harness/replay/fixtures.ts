// Where the replay harness finds a recorded sitting (ADR 0005). For node N,
// map branch index I, attempt A and feedback round R, the first file that exists wins:
//   N.I.rR.aA  N.I.rR  N.I.aA  N.I  N.rR.aA  N.rR  N.aA  N   (.jsonl, also .json)
// Outside a map the branch forms are skipped; off a feedback loop the round forms.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

const SAFE_NAME = /^[A-Za-z0-9_-]+$/;

export function fixtureCandidates(node: string, attempt: number, branchIndex?: number, round?: number): string[] {
  const bases: string[] = [];
  const forms = (stem: string) => {
    if (round !== undefined) bases.push(`${stem}.r${round}.a${attempt}`, `${stem}.r${round}`);
    bases.push(`${stem}.a${attempt}`, stem);
  };
  if (branchIndex !== undefined) forms(`${node}.${branchIndex}`);
  forms(node);
  return bases.flatMap((b) => [`${b}.jsonl`, `${b}.json`]);
}

export type FixtureLookup = { found: string } | { missing: string; lookedFor: string[] };

/** Whether `name` in folder `dir` is a regular file (symbolic links followed). */
export type FileProbe = (dir: string, name: string) => boolean;

/** Asks the file system each time. */
export const probeDisk: FileProbe = (dir, name) => {
  const path = join(dir, name);
  return existsSync(path) && statSync(path).isFile();
};

export function findFixture(
  dir: string,
  id: string,
  attempt: number,
  branchIndex?: number,
  round?: number,
  isFile: FileProbe = probeDisk,
): FixtureLookup {
  // A sub-graph's node "review/step" has its fixtures in a folder per graph node: review/step.jsonl (ADR 0024).
  const segments = id.split("/");
  const node = segments.pop()!;
  // Node ids are validated at load; refuse anything that could leave the folder anyway.
  if (!SAFE_NAME.test(node) || !segments.every((s) => SAFE_NAME.test(s)))
    return { missing: `node id "${id}" cannot name a fixture file`, lookedFor: [] };
  dir = join(dir, ...segments);
  const names = fixtureCandidates(node, attempt, branchIndex, round);
  for (const name of names) {
    if (isFile(dir, name)) return { found: join(dir, name) };
  }
  return { missing: `no replay fixture for node "${id}" in ${dir}`, lookedFor: names.map((n) => join(...segments, n)) };
}
