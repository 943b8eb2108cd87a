// deno.json / deno.jsonc: the project's own tasks test, lint, check and fmt when
// it defines them (`deno task test` keeps the permissions its task grants), else
// deno's built-in `deno test`, `deno lint`, `deno fmt --check`. Only those fixed
// task names ever reach a command line.
import type { DetectedCheck, Finding } from "./detected.ts";
import { parseJsonc } from "./jsonc.ts";
import type { ProjectFiles } from "./project-files.ts";
import { oneLine, testFolderGlobs } from "./text.ts";

const ROWS: readonly { kind: string; task: string; builtin: string; timeout: string; what: string }[] = [
  { kind: "tests", task: "test", builtin: "deno test", timeout: "10m", what: "the tests" },
  { kind: "lint", task: "lint", builtin: "deno lint", timeout: "5m", what: "deno's linter" },
  { kind: "fmt", task: "fmt", builtin: "deno fmt --check", timeout: "2m", what: "no file needs deno fmt" },
];

function tasksOf(files: ProjectFiles, file: string, notes: string[]): Record<string, unknown> {
  const read = files.read(file);
  if ("unreadable" in read) notes.push(`${oneLine(read.unreadable, 200)}: its tasks are not used`);
  if (!("text" in read)) return {};
  const parsed = parseJsonc(read.text);
  if ("error" in parsed) {
    notes.push(`${file} is not JSON (${oneLine(parsed.error, 80)}): its tasks are not used`);
    return {};
  }
  const tasks = (parsed.value as { tasks?: unknown } | null)?.tasks;
  return typeof tasks === "object" && tasks !== null && !Array.isArray(tasks) ? (tasks as Record<string, unknown>) : {};
}

export function detectDeno(files: ProjectFiles): Finding {
  const file = ["deno.json", "deno.jsonc"].find((f) => files.exists(f));
  if (file === undefined) return { checks: [], found: [], notes: [], protect: [] };
  const notes: string[] = [];
  const tasks = tasksOf(files, file, notes);
  const checks: DetectedCheck[] = ROWS.map((r) => {
    const own = Object.hasOwn(tasks, r.task) && typeof tasks[r.task] === "string";
    return {
      kind: r.kind,
      prefix: "deno",
      origin: own ? `${file} task "${r.task}": ${oneLine(tasks[r.task] as string, 100)}` : `${file}: ${r.builtin}`,
      run: own ? `deno task ${r.task}` : r.builtin,
      program: "deno",
      timeout: r.timeout,
      description: own ? `deno task ${r.task} (${file}: ${oneLine(tasks[r.task] as string, 80)})` : `${r.builtin} (${r.what})`,
    };
  });
  return {
    checks,
    found: [`${file}: ${checks.map((c) => c.run).join(", ")}`],
    notes,
    protect: [
      { glob: file, why: "its tasks and settings decide what the checks run" },
      ...testFolderGlobs(files),
      { glob: "**/*_test.ts", why: "test files" },
      { glob: "**/*.test.ts", why: "test files" },
    ],
  };
}
