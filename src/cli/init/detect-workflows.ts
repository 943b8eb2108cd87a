// .github/workflows, used only when nothing else was found: the `run:` steps of
// the project's CI that look like evidence (a test, lint, check, build …),
// copied as checks. A step is skipped, with a note, when vouch could not run it
// as written: it uses GitHub expressions (`${{ … }}`: a check's command holds no
// template), another shell, or a working-directory; set-up steps (installs,
// checkouts, echo) are no evidence. Bounded: 20 files, 8 checks.
import { parseDocument } from "yaml";
import type { DetectedCheck, Finding, ProtectedPath } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";
import { oneLine, testFolderGlobs } from "./text.ts";

const DIR = ".github/workflows";
const MAX_FILES = 20;
const MAX_CHECKS = 8;
const EVIDENCE = /\b(test|tests|lint|check|vet|fmt|format|typecheck|type-check|tsc|clippy|pytest|build|make)\b/i;
const SETUP =
  /^(sudo\s+)?(apt(-get)?|brew|pip3?|pipx|choco|corepack|curl|wget|git|echo|printf|cd|export|mkdir|cp|mv|rm|cat|ls|docker|npm\s+(ci|install|i)|yarn\s+install|pnpm\s+(install|i)|bun\s+install)(\s|$)/;
/** Control characters other than tab and newline: a step holding one is not copied. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const PATH_TOKEN = /^(\.\/)?[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)+$/;

interface Step {
  file: string;
  job: string;
  name?: string;
  run: string;
  shell?: unknown;
  workingDirectory?: unknown;
}

function stepsOf(file: string, doc: unknown): Step[] {
  const jobs = (doc as { jobs?: unknown } | null)?.jobs;
  if (typeof jobs !== "object" || jobs === null) return [];
  const out: Step[] = [];
  for (const [job, def] of Object.entries(jobs)) {
    const steps = (def as { steps?: unknown } | null)?.steps;
    if (!Array.isArray(steps)) continue;
    for (const s of steps) {
      if (typeof s !== "object" || s === null || typeof (s as { run?: unknown }).run !== "string") continue;
      const step = s as Record<string, unknown>;
      out.push({
        file,
        job,
        run: step.run as string,
        ...(typeof step.name === "string" ? { name: step.name } : {}),
        shell: step.shell,
        workingDirectory: step["working-directory"],
      });
    }
  }
  return out;
}

/** Why a step cannot be a check as written, or null. */
function refusal(s: Step): string | null {
  if (s.run.includes("${{") || s.run.includes("{{")) return "uses GitHub expressions (${{ … }})";
  if (CONTROL.test(s.run)) return "holds control characters";
  if (s.shell !== undefined && s.shell !== "bash" && s.shell !== "sh") return "runs in another shell";
  if (s.workingDirectory !== undefined) return "sets a working-directory";
  return null;
}

const lines = (run: string) =>
  run
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));

function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 30)
    .replace(/_+$/, "");
  return /^[a-z]/.test(s) ? s : `ci_${s || "step"}`;
}

/** Files a command names by relative path that exist here: the scripts it runs. */
function scriptsNamed(files: ProjectFiles, run: string): ProtectedPath[] {
  const out: ProtectedPath[] = [];
  for (const token of run.split(/\s+/).map((t) => t.replace(/^["']|["']$/g, ""))) {
    if (!PATH_TOKEN.test(token) || token.split("/").some((p) => p === "..")) continue;
    const rel = token.replace(/^\.\//, "");
    if (files.exists(rel) && !files.isDir(rel)) out.push({ glob: rel, why: "a script a check runs" });
  }
  return out;
}

function toCheck(s: Step, evidence: string[]): DetectedCheck {
  const run = evidence.length === 1 && lines(s.run).length === 1 ? evidence[0]! : `set -e\n${s.run.trim()}`;
  const where = `${s.file}, job ${oneLine(s.job, 40)}${s.name ? `, step "${oneLine(s.name, 60)}"` : ""}`;
  return {
    kind: slug(s.name ?? evidence[0]!),
    prefix: "ci",
    origin: `${where}`,
    run,
    program: (lines(s.run)[0] ?? "").split(/\s+/)[0] ?? "",
    timeout: "10m",
    description: `from CI: ${where}`,
  };
}

export function detectWorkflows(files: ProjectFiles): Finding {
  const names = files
    .list(DIR)
    .filter((n) => n.endsWith(".yml") || n.endsWith(".yaml"))
    .slice(0, MAX_FILES);
  const notes: string[] = [];
  const checks: DetectedCheck[] = [];
  const protect: ProtectedPath[] = [];
  const seen = new Set<string>();
  let full = false;
  for (const name of names) {
    if (full) break;
    const file = `${DIR}/${name}`;
    const read = files.read(file);
    if (!("text" in read)) {
      if ("unreadable" in read) notes.push(`${oneLine(read.unreadable, 200)}: skipped`);
      continue;
    }
    let doc: unknown;
    try {
      const parsed = parseDocument(read.text, { uniqueKeys: false });
      if (parsed.errors.length > 0) throw parsed.errors[0];
      doc = parsed.toJS({ maxAliasCount: 100 });
    } catch (e) {
      notes.push(`${file} is not YAML vouch can read (${oneLine((e as Error).message, 80)}): skipped`);
      continue;
    }
    for (const s of stepsOf(file, doc)) {
      const evidence = lines(s.run).filter((l) => !SETUP.test(l) && EVIDENCE.test(l));
      if (evidence.length === 0 || seen.has(s.run.trim())) continue;
      const why = refusal(s);
      const label = `${file}, job ${oneLine(s.job, 40)}${s.name ? `, step "${oneLine(s.name, 60)}"` : ""}`;
      if (why !== null) {
        notes.push(`${label}: ${why}, so it is not copied as a check`);
        continue;
      }
      if (checks.length === MAX_CHECKS) {
        notes.push(`more CI steps than the ${MAX_CHECKS} checks vouch init copies: the rest are left out`);
        full = true;
        break;
      }
      seen.add(s.run.trim());
      checks.push(toCheck(s, evidence));
      protect.push(...scriptsNamed(files, s.run));
    }
  }
  if (checks.length === 0) return { checks, found: [], notes, protect: [] };
  return {
    checks,
    found: [`${DIR}: ${checks.length} run step${checks.length === 1 ? "" : "s"} (nothing else was found)`],
    notes,
    protect: [...protect, ...testFolderGlobs(files)],
  };
}
