// What `vouch init` detects in each kind of project, read from real files in
// temp folders, and how it meets hostile ones: 10,000 scripts, script names that
// look like flags or templates, a huge or malformed Makefile, a package.json that
// is a link to /dev/zero or a FIFO. Every case ends in a clear note or a check,
// never a throw, and never a project-written name on a command line.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { detect } from "../../src/cli/init/detect.ts";
import { definedTargets, ruleTargets } from "../../src/cli/init/detect-make.ts";
import { parseJsonc } from "../../src/cli/init/jsonc.ts";
import { nameChecks } from "../../src/cli/init/names.ts";
import { INIT_READ_BYTES, projectFiles } from "../../src/cli/init/project-files.ts";
import { FIXTURES, project, type Files, type Project } from "./fixtures.ts";

const made: Project[] = [];
afterEach(() => {
  for (const p of made.splice(0)) p.cleanup();
});

function detected(files: Files) {
  const p = project(files, false);
  made.push(p);
  return { ...detect(projectFiles(p.root)), root: p.root };
}
const runs = (d: { checks: { run: string }[] }) => d.checks.map((c) => c.run);

describe("each kind of project", () => {
  test("node: the scripts, run with the lock file's package manager; the tests and package.json protected", () => {
    const d = detected(FIXTURES.node!);
    expect(runs(d)).toEqual(["npm run test", "npm run lint", "npm run build"]);
    expect(d.found).toEqual(["package.json scripts test, lint, build (npm, from package-lock.json)"]);
    expect(d.protect.map((p) => p.glob)).toEqual(["package.json", "test/**", "**/*.test.*", "**/*.spec.*", "**/__tests__/**"]);
  });

  test.each([
    ["pnpm-lock.yaml", "pnpm run test"],
    ["yarn.lock", "yarn run test"],
    ["bun.lock", "bun run test"],
  ])("node with %s: %s", (lock, run) => {
    expect(runs(detected({ "package.json": '{"scripts":{"test":"x"}}', [lock]: "" }))).toEqual([run]);
  });

  test("node: packageManager when there is no lock file; npm's placeholder test script is no evidence", () => {
    const d = detected({
      "package.json": JSON.stringify({
        packageManager: "pnpm@9.1.0",
        scripts: { test: 'echo "Error: no test specified" && exit 1', lint: "eslint ." },
      }),
    });
    expect(runs(d)).toEqual(["pnpm run lint"]);
    expect(d.notes.join("\n")).toContain("npm's placeholder");
  });

  test("python: pytest and ruff through uv (uv.lock); test files and pyproject.toml protected", () => {
    const d = detected(FIXTURES.python!);
    expect(runs(d)).toEqual(["uv run pytest", "uv run ruff check .", "uv run ruff format --check ."]);
    expect(d.protect.map((p) => p.glob)).toEqual(["tests/**", "**/test_*.py", "**/*_test.py", "**/conftest.py", "pyproject.toml"]);
  });

  test("python without a runner's lock file: python3 -m pytest", () => {
    expect(runs(detected({ "setup.cfg": "[tool:pytest]\n" }))).toEqual(["python3 -m pytest"]);
  });

  test("go: go test, go vet, and gofmt -l judged by its output (it exits 0 either way)", () => {
    const d = detected(FIXTURES.go!);
    expect(runs(d)).toEqual(["go test ./...", "go vet ./...", "gofmt -l ."]);
    expect(d.checks.map((c) => c.expect)).toEqual([undefined, undefined, "empty_output"]);
  });

  test("rust: cargo test, clippy with warnings as errors, cargo fmt --check", () => {
    expect(runs(detected(FIXTURES.rust!))).toEqual(["cargo test", "cargo clippy --all-targets -- -D warnings", "cargo fmt --check"]);
  });

  test("make: the targets test and lint (an assignment and .PHONY are not targets)", () => {
    const d = detected(FIXTURES.make!);
    expect(runs(d)).toEqual(["make test", "make lint"]);
    expect(d.protect.map((p) => p.glob)).toEqual(["Makefile"]);
  });

  test("deno.jsonc with comments and trailing commas: its own test task, deno's lint and fmt", () => {
    expect(runs(detected(FIXTURES.deno!))).toEqual(["deno task test", "deno lint", "deno fmt --check"]);
  });

  test("workflows only: run steps that look like evidence; expressions, installs and working-directory are not copied", () => {
    const d = detected(FIXTURES.workflows!);
    expect(runs(d)).toEqual(["./scripts/test.sh"]);
    expect(d.checks[0]!.kind).toBe("run_the_tests");
    expect(d.protect.map((p) => p.glob)).toContain("scripts/test.sh");
    const notes = d.notes.join("\n");
    expect(notes).toContain("uses GitHub expressions");
    expect(notes).toContain("sets a working-directory");
    expect(notes).not.toContain("npm ci");
  });

  test("workflows are not read when anything else gave a check", () => {
    const d = detected({ ...FIXTURES.workflows!, ...FIXTURES.make! });
    expect(runs(d)).toEqual(["make test", "make lint"]);
  });

  test("empty: nothing found, nothing noted", () => {
    const d = detected(FIXTURES.empty!);
    expect(d.checks).toEqual([]);
    expect(d.found).toEqual([]);
  });

  test("a Makefile and package.json together: both, the second lint named by its source", () => {
    const d = detected({ ...FIXTURES.make!, "package.json": '{"scripts":{"lint":"eslint ."}}' });
    expect(nameChecks(d.checks).map((c) => `${c.name}=${c.run}`)).toEqual(["tests=make test", "lint=make lint", "npm_lint=npm run lint"]);
  });
});

describe("hostile projects", () => {
  test("10,000 scripts, names like flags, newlines and templates: only the fixed names are looked up", () => {
    const scripts: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++) scripts[`s${i}`] = `echo ${i}`;
    scripts["-rf"] = "rm -rf /";
    scripts["test\n{{ inputs.x }}"] = "x";
    scripts["{{ x }}"] = "y";
    scripts.test = "vitest run\n{{ inputs.secret }}\u001b[31m";
    const d = detected({ "package.json": JSON.stringify({ scripts }) });
    expect(runs(d)).toEqual(["npm run test"]);
    // The body shows only in the description and the comment, on one line, without the escape.
    expect(d.checks[0]!.description).toBe("npm run test (package.json: vitest run {{ inputs.secret }})");
    expect(d.checks[0]!.origin).not.toMatch(/[\n\u001b]/);
  });

  test("a package.json that is a link to /dev/zero, and one that is a FIFO: a note each, no hang", () => {
    const p = project({}, false);
    made.push(p);
    symlinkSync("/dev/zero", join(p.root, "package.json"));
    execFileSync("mkfifo", [join(p.root, "Makefile")]);
    const d = detect(projectFiles(p.root));
    expect(d.checks).toEqual([]);
    expect(d.notes).toEqual([
      "cannot read Makefile: it is a pipe (FIFO), not a regular file: skipped",
      "cannot read package.json: it is a character device, not a regular file: skipped",
    ]);
  });

  test("a Makefile over the read limit is skipped with its size; a 1 MiB line without a colon costs one pass", () => {
    const big = detected({ Makefile: `test:\n\ttrue\n${"#".repeat(INIT_READ_BYTES)}\n` });
    expect(big.checks).toEqual([]);
    expect(big.notes[0]).toMatch(/^Makefile is 1(\.0)? MiB, over the limit of 1 MiB: skipped$/);
    const wide = `${" ".repeat(INIT_READ_BYTES - 100)}\ntest:\n`;
    expect([...definedTargets(wide, new Set(["test"]))]).toEqual(["test"]);
  });

  test("a malformed Makefile: garbage, binary bytes, rules with variables; nothing but real targets", () => {
    expect(ruleTargets("test check: deps")).toEqual(["test", "check"]);
    expect(ruleTargets("X := 1")).toEqual([]);
    expect(ruleTargets("%.o: %.c")).toEqual([]);
    expect(ruleTargets("$(T): x")).toEqual([]);
    expect(ruleTargets("\ttest: in a recipe")).toEqual([]);
    const d = detected({ Makefile: "\u0000\u0001garbage\n:::\n=:\nlint::\n\tx\n\u00ff\u00fe" });
    expect(runs(d)).toEqual(["make lint"]);
  });

  test("package.json that is not JSON, not an object, or whose scripts are not an object", () => {
    expect(detected({ "package.json": "{ nope" }).notes[0]).toMatch(/^package\.json is not JSON \(.+\): skipped$/);
    expect(detected({ "package.json": "[1,2]" }).notes).toEqual(["package.json is not a JSON object: skipped"]);
    expect(detected({ "package.json": '{"scripts":"npm test"}' }).notes).toEqual(["package.json: scripts is not an object: skipped"]);
    expect(detected({ "package.json": `${"[".repeat(100_000)}` }).checks).toEqual([]);
  });

  test("a workflow that is not YAML, an alias bomb, 8 checks at most, and a step named constructor", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      ...Array.from(
        { length: 9 },
        (_, i) => `${"b".repeat(i + 1)}: &${"b".repeat(i + 1)} [*${i === 0 ? "a" : "b".repeat(i)}, *${i === 0 ? "a" : "b".repeat(i)}]`,
      ),
    ].join("\n");
    const steps = Array.from(
      { length: 12 },
      (_, i) => `      - name: ${i === 0 ? "constructor" : `test ${i}`}\n        run: ./t${i} --test`,
    ).join("\n");
    const d = detected({
      ".github/workflows/a.yml": "jobs: [unclosed",
      ".github/workflows/b.yml": bomb,
      ".github/workflows/c.yml": `jobs:\n  t:\n    steps:\n${steps}\n`,
    });
    expect(d.checks).toHaveLength(8);
    expect(d.notes.some((n) => n.startsWith(".github/workflows/a.yml is not YAML vouch can read"))).toBe(true);
    expect(d.notes.some((n) => n.startsWith(".github/workflows/b.yml is not YAML vouch can read"))).toBe(true);
    expect(d.notes).toContain("more CI steps than the 8 checks vouch init copies: the rest are left out");
    expect(nameChecks(d.checks)[0]!.name).toBe("check_constructor");
  });

  test("a multi-line run step is run with set -e, as GitHub runs it", () => {
    const d = detected({
      ".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: |\n          ./prepare\n          ./check --all\n",
    });
    expect(runs(d)).toEqual(["set -e\n./prepare\n./check --all"]);
  });

  test("a folder of 10,000 workflow files is listed with a bound", () => {
    const p = project({}, false);
    made.push(p);
    mkdirSync(join(p.root, ".github", "workflows"), { recursive: true });
    for (let i = 0; i < 10_000; i++) writeFileSync(join(p.root, ".github", "workflows", `w${i}.txt`), "");
    expect(projectFiles(p.root).list(".github/workflows")).toHaveLength(200);
  });
});

describe("JSON with comments", () => {
  test("comments and trailing commas go; the same characters inside strings stay", () => {
    expect(parseJsonc('{"a": "x // not a comment, }", /* c */ "b": [1, 2,], // end\n}')).toEqual({
      value: { a: "x // not a comment, }", b: [1, 2] },
    });
    expect(parseJsonc('{"a": "\\"/*"}')).toEqual({ value: { a: '"/*' } });
    expect("error" in parseJsonc("{")).toBe(true);
  });
});
