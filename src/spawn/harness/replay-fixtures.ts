// Where the replay harness finds a recorded sitting (ADR 0005). For node N,
// map branch index I and attempt A, the first file that exists wins:
//   N.I.aA.jsonl  N.I.jsonl  N.aA.jsonl  N.jsonl   (each also as .json)
// Outside a map the branch forms are skipped.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

const SAFE_NAME = /^[A-Za-z0-9_-]+$/;

export function fixtureCandidates(node: string, attempt: number, branchIndex?: number): string[] {
  const bases: string[] = [];
  if (branchIndex !== undefined) bases.push(`${node}.${branchIndex}.a${attempt}`, `${node}.${branchIndex}`);
  bases.push(`${node}.a${attempt}`, node);
  return bases.flatMap((b) => [`${b}.jsonl`, `${b}.json`]);
}

export type FixtureLookup = { found: string } | { missing: string; lookedFor: string[] };

export function findFixture(dir: string, node: string, attempt: number, branchIndex?: number): FixtureLookup {
  const names = fixtureCandidates(node, attempt, branchIndex);
  // Node ids are validated at load; refuse anything that could leave the folder anyway.
  if (!SAFE_NAME.test(node)) return { missing: `node id "${node}" cannot name a fixture file`, lookedFor: [] };
  for (const name of names) {
    const path = join(dir, name);
    if (existsSync(path) && statSync(path).isFile()) return { found: path };
  }
  return { missing: `no replay fixture for node "${node}" in ${dir}`, lookedFor: names };
}
