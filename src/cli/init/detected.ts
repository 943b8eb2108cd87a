// What `vouch init` found in a project: the evidence commands (checks to be),
// what it says it found and skipped, and which paths an agent may not change.
// Every detector returns a Finding; detect.ts puts them together.

/** A command the project already has that can judge an agent's work. */
export interface DetectedCheck {
  /** The name it would like in the library (tests, lint, …); names.ts makes names unique. */
  kind: string;
  /** Short word for the source, used as a name prefix when two sources want one name: npm, make, go … */
  prefix: string;
  /** Where it came from, for the comment above the check: `package.json "test": vitest run`. */
  origin: string;
  /** The shell command (static: never holds `{{`). */
  run: string;
  /** The program the command starts first: "could not run (go not found)". */
  program: string;
  /** A duration the loader accepts, at most 10m. */
  timeout: string;
  expect?: "empty_output";
  /** One line for the check's description: field. */
  description: string;
  /** Why this expect, for a comment (formatters that list files). */
  expectWhy?: string;
}

export interface Finding {
  checks: DetectedCheck[];
  /** "package.json scripts test, lint (npm, from package-lock.json)". */
  found: string[];
  /** What was skipped and why: a file that could not be read, a step that could not be a check. */
  notes: string[];
  /** Globs (relative to the project folder) an agent may not change, each with why. */
  protect: ProtectedPath[];
}

export interface ProtectedPath {
  glob: string;
  why: string;
}

export const EMPTY_FINDING: Finding = Object.freeze({ checks: [], found: [], notes: [], protect: [] }) as Finding;

export function merge(findings: readonly Finding[]): Finding {
  const seen = new Set<string>();
  const protect: ProtectedPath[] = [];
  for (const f of findings)
    for (const p of f.protect) {
      if (seen.has(p.glob)) continue;
      seen.add(p.glob);
      protect.push(p);
    }
  return {
    checks: findings.flatMap((f) => f.checks),
    found: findings.flatMap((f) => f.found),
    notes: findings.flatMap((f) => f.notes),
    protect,
  };
}
