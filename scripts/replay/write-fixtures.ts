// Writes the replay fixtures of the shipped graphs from their specs:
//   bun scripts/replay/write-fixtures.ts
// The files are committed; this script is how they were made and how to change them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeStream, type SittingSpec } from "./claude-stream.ts";
import { findingVerifierFixtures } from "./finding-verifier.ts";
import { parallelReviewFixtures } from "./parallel-review.ts";
import { parallelImplementFixtures } from "./parallel-implement.ts";
import { stepRunnerFixtures } from "./step-runner.ts";

const root = join(import.meta.dirname, "..", "..", "graphs");
const sets: Record<string, Record<string, SittingSpec>> = {
  "finding-verifier.replay": findingVerifierFixtures,
  "parallel-review.replay": parallelReviewFixtures,
  "parallel-implement.replay": parallelImplementFixtures,
  "step-runner.replay": stepRunnerFixtures,
};

for (const [folder, fixtures] of Object.entries(sets)) {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  for (const [name, spec] of Object.entries(fixtures)) {
    writeFileSync(join(dir, `${name}.jsonl`), claudeStream(spec));
    if (spec.edits) writeFileSync(join(dir, `${name}.edits.json`), JSON.stringify({ edits: spec.edits }, null, 2) + "\n");
  }
  console.error(`${folder}: ${Object.keys(fixtures).length} fixtures`);
}
