// A Makefile's targets test, check and lint: `make test` is the project's own
// name for its evidence. The file is scanned line by line without a regular
// expression that could backtrack (a 1 MiB line of spaces costs one pass), and
// only those three fixed names ever reach a command line.
import type { DetectedCheck, Finding } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";
import { oneLine, testFolderGlobs } from "./text.ts";

const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];
const TARGETS: readonly { target: string; kind: string; timeout: string }[] = [
  { target: "test", kind: "tests", timeout: "10m" },
  { target: "check", kind: "check", timeout: "10m" },
  { target: "lint", kind: "lint", timeout: "5m" },
];

/** The targets a rule line defines: `test check: deps` → [test, check]; `X := 1`, recipes and comments → []. */
export function ruleTargets(line: string): string[] {
  if (line === "" || line[0] === "\t" || line[0] === " " || line[0] === "#" || line[0] === ".") return [];
  const colon = line.indexOf(":");
  if (colon <= 0 || line[colon + 1] === "=") return []; // `X := 1` is an assignment
  const head = line.slice(0, colon);
  if (head.includes("=") || head.includes("$") || head.includes("%")) return [];
  return head.split(/[ \t]+/).filter((t) => t !== "");
}

/** Targets a Makefile defines, of the names in `wanted`. */
export function definedTargets(text: string, wanted: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  let start = 0;
  while (start <= text.length && found.size < wanted.size) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end === -1 ? text.length : end).replace(/\r$/, "");
    for (const t of ruleTargets(line)) if (wanted.has(t)) found.add(t);
    if (end === -1) break;
    start = end + 1;
  }
  return found;
}

export function detectMake(files: ProjectFiles): Finding {
  const file = MAKEFILES.find((f) => files.exists(f));
  if (file === undefined) return { checks: [], found: [], notes: [], protect: [] };
  const read = files.read(file);
  if ("missing" in read) return { checks: [], found: [], notes: [], protect: [] };
  if ("unreadable" in read) return { checks: [], found: [], notes: [`${oneLine(read.unreadable, 200)}: skipped`], protect: [] };
  const defined = definedTargets(read.text, new Set(TARGETS.map((t) => t.target)));
  const checks: DetectedCheck[] = TARGETS.filter((t) => defined.has(t.target)).map((t) => ({
    kind: t.kind,
    prefix: "make",
    origin: `${file} target ${t.target}`,
    run: `make ${t.target}`,
    program: "make",
    timeout: t.timeout,
    description: `make ${t.target} (the ${file}'s own target)`,
  }));
  if (checks.length === 0) return { checks, found: [], notes: [`${file} defines none of the targets test, check, lint`], protect: [] };
  return {
    checks,
    found: [`${file} targets ${checks.map((c) => c.run.slice(5)).join(", ")}`],
    notes: [],
    protect: [{ glob: file, why: "its targets are the checks' commands" }, ...testFolderGlobs(files)],
  };
}
