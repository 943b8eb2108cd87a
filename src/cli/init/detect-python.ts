// A Python project (pyproject.toml, setup.py, setup.cfg, pytest.ini, tox.ini,
// requirements.txt): pytest when the project shows it uses it, ruff and mypy
// when pyproject.toml configures them, all run through the project's own runner
// (uv, poetry, pdm: their lock file) or python3. No TOML parser: a section
// header or the word pytest is looked for on the text, which is enough to
// choose and cannot be led into running anything the names do not say.
import type { DetectedCheck, Finding, ProtectedPath } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";
import { oneLine, testFolderGlobs } from "./text.ts";

const MARKERS = ["pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", "requirements.txt", "requirements-dev.txt"];
const RUNNERS: readonly { lock: string; prefix: string; program: string }[] = [
  { lock: "uv.lock", prefix: "uv run ", program: "uv" },
  { lock: "poetry.lock", prefix: "poetry run ", program: "poetry" },
  { lock: "pdm.lock", prefix: "pdm run ", program: "pdm" },
];

function text(files: ProjectFiles, rel: string, notes: string[]): string {
  const r = files.read(rel);
  if ("text" in r) return r.text;
  if ("unreadable" in r) notes.push(`${oneLine(r.unreadable, 200)}: skipped`);
  return "";
}

const section = (toml: string, name: string) => new RegExp(`^\\[${name.replace(/\./g, "\\.")}[\\].]`, "m").test(toml);

export function detectPython(files: ProjectFiles): Finding {
  const present = MARKERS.filter((m) => files.exists(m));
  if (present.length === 0) return { checks: [], found: [], notes: [], protect: [] };
  const notes: string[] = [];
  const pyproject = text(files, "pyproject.toml", notes);
  const setupCfg = text(files, "setup.cfg", notes);
  const requirements = text(files, "requirements.txt", notes) + text(files, "requirements-dev.txt", notes);
  const runner = RUNNERS.find((r) => files.exists(r.lock));
  const run = (tool: string) => (runner ? `${runner.prefix}${tool}` : tool === "pytest" ? "python3 -m pytest" : tool);
  const program = (tool: string) => runner?.program ?? (tool === "pytest" ? "python3" : tool);
  const usesPytest =
    files.exists("pytest.ini") ||
    files.exists("conftest.py") ||
    section(pyproject, "tool.pytest") ||
    /^\[tool:pytest\]/m.test(setupCfg) ||
    /\bpytest\b/.test(pyproject) ||
    /^pytest\b/m.test(requirements);
  const checks: DetectedCheck[] = [];
  const from = runner ? ` (through ${runner.program}: ${runner.lock})` : "";
  if (usesPytest)
    checks.push({
      kind: "tests",
      prefix: "py",
      origin: "pytest (the project configures or requires it)",
      run: run("pytest"),
      program: program("pytest"),
      timeout: "10m",
      description: `the tests, with pytest${from}`,
    });
  if (section(pyproject, "tool.ruff") || files.exists("ruff.toml") || files.exists(".ruff.toml"))
    checks.push(
      {
        kind: "lint",
        prefix: "py",
        origin: "ruff (configured in the project)",
        run: `${run("ruff")} check .`,
        program: program("ruff"),
        timeout: "5m",
        description: `ruff check .${from}`,
      },
      {
        kind: "fmt",
        prefix: "py",
        origin: "ruff (configured in the project)",
        run: `${run("ruff")} format --check .`,
        program: program("ruff"),
        timeout: "2m",
        description: `no file needs formatting: ruff format --check .${from}`,
      },
    );
  if (section(pyproject, "tool.mypy") || files.exists("mypy.ini"))
    checks.push({
      kind: "typecheck",
      prefix: "py",
      origin: "mypy (configured in the project)",
      run: `${run("mypy")} .`,
      program: program("mypy"),
      timeout: "5m",
      description: `mypy .${from}`,
    });
  if (checks.length === 0)
    return { checks, found: [], notes: [...notes, `${present.join(", ")}: no pytest, ruff or mypy configured`], protect: [] };
  const protect: ProtectedPath[] = [
    ...testFolderGlobs(files),
    { glob: "**/test_*.py", why: "test files" },
    { glob: "**/*_test.py", why: "test files" },
    { glob: "**/conftest.py", why: "pytest's fixtures and hooks" },
    ...(pyproject !== "" ? [{ glob: "pyproject.toml", why: "it configures pytest, ruff and mypy (what they check)" }] : []),
  ];
  return {
    checks,
    found: [`Python (${present.join(", ")}): ${[...new Set(checks.map((c) => c.run))].join(", ")}`],
    notes,
    protect: usesPytest ? protect : protect.filter((p) => p.glob === "pyproject.toml"),
  };
}
