// package.json: the scripts a project already uses as evidence (test, lint,
// typecheck, a format check, build), run with the package manager its lock file
// names. Only script NAMES from a fixed list ever reach a command line (`npm run
// test`); a script's body appears only in a description, cut and cleaned. So a
// package.json with 10,000 scripts, or one named "-rf" or "a\n{{ x }}", changes
// nothing but what is looked up.
import type { DetectedCheck, Finding } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";
import { oneLine, testFolderGlobs } from "./text.ts";

/** The scripts looked for, in order: the first name of each row that exists is used. */
const SCRIPTS: readonly { kind: string; names: readonly string[]; timeout: string }[] = [
  { kind: "tests", names: ["test"], timeout: "10m" },
  { kind: "lint", names: ["lint"], timeout: "5m" },
  { kind: "typecheck", names: ["typecheck", "type-check", "check-types", "types", "tsc"], timeout: "5m" },
  { kind: "fmt", names: ["format:check", "fmt:check", "check-format", "prettier:check"], timeout: "2m" },
  { kind: "build", names: ["build"], timeout: "10m" },
];

/** Lock files, in the order they are believed when there are several. */
const LOCKS: readonly { file: string; pm: string }[] = [
  { file: "pnpm-lock.yaml", pm: "pnpm" },
  { file: "yarn.lock", pm: "yarn" },
  { file: "bun.lock", pm: "bun" },
  { file: "bun.lockb", pm: "bun" },
  { file: "package-lock.json", pm: "npm" },
  { file: "npm-shrinkwrap.json", pm: "npm" },
];
const MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);

/** `npm init`'s test script: it fails by design, so it is no evidence of anything. */
const PLACEHOLDER_TEST = /no test specified/i;

function packageManager(files: ProjectFiles, pkg: Record<string, unknown>): { pm: string; why: string } {
  const locks = LOCKS.filter((l) => files.exists(l.file));
  if (locks.length > 0) return { pm: locks[0]!.pm, why: `from ${locks[0]!.file}` };
  const declared = typeof pkg.packageManager === "string" ? /^([a-z]+)@/.exec(pkg.packageManager)?.[1] : undefined;
  if (declared !== undefined && MANAGERS.has(declared)) return { pm: declared, why: "from packageManager in package.json" };
  return { pm: "npm", why: "no lock file: npm" };
}

function parsed(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `package.json is not JSON (${oneLine((e as Error).message, 80)}): skipped`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "package.json is not a JSON object: skipped";
  return value as Record<string, unknown>;
}

export function detectNode(files: ProjectFiles): Finding {
  const read = files.read("package.json");
  if ("missing" in read) return { checks: [], found: [], notes: [], protect: [] };
  if ("unreadable" in read) return { checks: [], found: [], notes: [`${oneLine(read.unreadable, 200)}: skipped`], protect: [] };
  const pkg = parsed(read.text);
  if (typeof pkg === "string") return { checks: [], found: [], notes: [pkg], protect: [] };
  const scripts = pkg.scripts;
  if (scripts === undefined) return { checks: [], found: [], notes: ["package.json has no scripts"], protect: [] };
  if (typeof scripts !== "object" || scripts === null || Array.isArray(scripts))
    return { checks: [], found: [], notes: ["package.json: scripts is not an object: skipped"], protect: [] };
  const { pm, why } = packageManager(files, pkg);
  const checks: DetectedCheck[] = [];
  const notes: string[] = [];
  for (const row of SCRIPTS) {
    const name = row.names.find((n) => Object.hasOwn(scripts, n));
    if (name === undefined) continue;
    const body = (scripts as Record<string, unknown>)[name];
    if (typeof body !== "string" || body.trim() === "") {
      notes.push(`package.json script "${name}" is not a command: skipped`);
      continue;
    }
    if (row.kind === "tests" && PLACEHOLDER_TEST.test(body)) {
      notes.push(`package.json script "test" is npm's placeholder ("no test specified"): skipped`);
      continue;
    }
    checks.push({
      kind: row.kind,
      prefix: pm,
      origin: `package.json "${name}": ${oneLine(body, 100)}`,
      run: `${pm} run ${name}`,
      program: pm,
      timeout: row.timeout,
      description: `${pm} run ${name} (package.json: ${oneLine(body, 80)})`,
    });
  }
  if (checks.length === 0)
    return { checks, found: [], notes: [...notes, "package.json has none of the scripts test, lint, typecheck, build"], protect: [] };
  const names = checks.map((c) => c.run.slice(`${pm} run `.length));
  const tests = checks.some((c) => c.kind === "tests");
  return {
    checks,
    found: [`package.json scripts ${names.join(", ")} (${pm}, ${why})`],
    notes,
    protect: [
      { glob: "package.json", why: "its scripts are the checks' commands (remove this line if a task must add a dependency)" },
      ...(tests
        ? [
            ...testFolderGlobs(files),
            { glob: "**/*.test.*", why: "test files" },
            { glob: "**/*.spec.*", why: "test files" },
            { glob: "**/__tests__/**", why: "test folders" },
          ]
        : []),
    ],
  };
}
