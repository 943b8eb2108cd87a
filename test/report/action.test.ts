// The GitHub Action and the example workflow of docs/ci.md: both parsed and
// validated by GitHub's own workflow parser (@actions/workflow-parser), and the
// action's shell steps run for real with bash, as the runner would run them
// (GITHUB_ENV, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), against dist/vouch.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { parseWorkflow, NoOperationTraceWriter } from "@actions/workflow-parser";
import { parseAction, convertActionTemplate } from "@actions/workflow-parser/actions/index";
import { BINARY, ensureBinary, ROOT, SAMPLE_REPO, tempDir, type TempDir } from "../e2e/helpers.ts";
import { HOSTILE } from "./helpers.ts";

const ACTION = readFileSync(join(ROOT, "action.yml"), "utf8");
const CI_DOC = readFileSync(join(ROOT, "docs", "ci.md"), "utf8");
const trace = new NoOperationTraceWriter();

function errorsOf(result: { context: { errors: { getErrors(): { message: string }[] } } }): string[] {
  return result.context.errors.getErrors().map((e) => e.message);
}

describe("GitHub's workflow parser accepts the action and the example workflow", () => {
  test("action.yml: a valid composite action with the documented inputs, uploading with actions/upload-artifact", () => {
    const parsed = parseAction({ name: "action.yml", content: ACTION }, trace);
    expect(errorsOf(parsed)).toEqual([]);
    const action = convertActionTemplate(parsed.context, parsed.value!);
    expect(action.runs.using).toBe("composite");
    expect(action.inputs!.map((i) => i.id)).toEqual([
      "graph",
      "inputs",
      "args",
      "vouch-path",
      "report-dir",
      "artifact-name",
      "working-directory",
    ]);
    expect(action.inputs!.find((i) => i.id === "graph")!.required).toBe(true);
    expect(action.outputs!.map((o) => o.id)).toEqual(["exit-code", "report-dir"]);
    const uses = (action.runs as { steps: { uses?: { value: string } }[] }).steps.map((s) => s.uses?.value).filter(Boolean);
    expect(uses).toEqual(["actions/setup-node@v4", "actions/upload-artifact@v4"]);
    // The parser can say no: a composite step without `shell` is an error.
    const broken = parseAction(
      {
        name: "action.yml",
        content: ACTION.replace("      shell: bash\n      env:\n        VOUCH_PATH", "      env:\n        VOUCH_PATH"),
      },
      trace,
    );
    expect(errorsOf(broken).length + (broken.value ? 0 : 1)).toBeGreaterThan(0);
  });

  test("docs/ci.md's example workflow is valid and uses the action with its inputs", () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(CI_DOC)![1]!;
    const parsed = parseWorkflow({ name: "verify-review.yml", content: block }, trace);
    expect(errorsOf(parsed)).toEqual([]);
    const step = (
      parseYaml(block) as { jobs: { vouch: { steps: { uses?: string; with?: Record<string, string> }[] } } }
    ).jobs.vouch.steps.find((s) => s.uses?.includes("/vouch@"))!;
    const declared = (parseYaml(ACTION) as { inputs: Record<string, unknown> }).inputs;
    for (const key of Object.keys(step.with!)) expect(Object.keys(declared)).toContain(key);
    expect(
      parseWorkflow({ name: "bad.yml", content: block.replace("runs-on:", "runs_on:") }, trace).context.errors.getErrors().length,
    ).toBeGreaterThan(0);
    // The example teaches what the action does: expressions reach a script through env, never spliced in.
    const runs = (parseYaml(block) as { jobs: { vouch: { steps: { run?: string }[] } } }).jobs.vouch.steps
      .map((s) => s.run)
      .filter((r) => r !== undefined);
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs) expect(r).not.toContain("${{");
  });

  test("the README's Action step, put in a job, is valid and names only declared inputs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const snippet = /```yml\n([\s\S]*?)```/.exec(readme)![1]!;
    const workflow = `on: push\njobs:\n  vouch:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n${snippet}`;
    expect(errorsOf(parseWorkflow({ name: "readme.yml", content: workflow }, trace))).toEqual([]);
    const step = (parseYaml(workflow) as { jobs: { vouch: { steps: { with?: Record<string, string> }[] } } }).jobs.vouch.steps[1]!;
    const declared = Object.keys((parseYaml(ACTION) as { inputs: Record<string, unknown> }).inputs);
    expect(Object.keys(step.with!).every((k) => declared.includes(k))).toBe(true);
  });

  test("no shell step splices an input into its script: inputs reach it through env only", () => {
    const steps = (parseYaml(ACTION) as { runs: { steps: { run?: string }[] } }).runs.steps;
    const scripts = steps.map((s) => s.run).filter((r): r is string => r !== undefined);
    expect(scripts).toHaveLength(3);
    for (const s of scripts) expect(s).not.toContain("${{");
  });
});

/** The action's shell steps, by name, as the runner would run them. */
const STEPS = new Map(
  (parseYaml(ACTION) as { runs: { steps: { name: string; run?: string }[] } }).runs.steps.filter((s) => s.run).map((s) => [s.name, s.run!]),
);

describe("the action's steps, run with bash against dist/vouch", () => {
  let dir: TempDir;
  let files: { env: string; output: string; summary: string };
  beforeAll(() => {
    ensureBinary();
    dir = tempDir("action");
    files = { env: join(dir.path, "github_env"), output: join(dir.path, "github_output"), summary: join(dir.path, "summary") };
    for (const f of Object.values(files)) writeFileSync(f, "");
  });
  afterAll(() => dir.cleanup());

  function step(name: string, env: Record<string, string>) {
    // As the runner runs `shell: bash`: bash --noprofile --norc -eo pipefail {0}.
    const script = join(dir.path, "step.sh");
    writeFileSync(script, STEPS.get(name)!);
    const r = Bun.spawnSync(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: dir.path,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: dir.path,
        TZ: "UTC",
        VOUCH_HOME: join(dir.path, ".vouch"),
        GITHUB_ENV: files.env,
        GITHUB_OUTPUT: files.output,
        GITHUB_STEP_SUMMARY: files.summary,
        ...env,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  }
  const outputs = () =>
    Object.fromEntries(
      readFileSync(files.output, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split("=", 2) as [string, string]),
    );

  test("install with vouch-path, run the demo with inputs and args, summary and reports written, step ends 0", () => {
    const install = step("Install vouch", { VOUCH_PATH: BINARY, ACTION_DIR: ROOT });
    expect(install.code).toBe(0);
    expect(readFileSync(files.env, "utf8")).toBe(`VOUCH_BIN=${BINARY}\n`);
    const run = step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: join(ROOT, "graphs", "finding-verifier.yaml"),
      GRAPH_INPUTS: `findings=@${join(SAMPLE_REPO, "REVIEW.md")}\nproject_dir=${SAMPLE_REPO}\n`,
      GRAPH_ARGS: "--harness replay\n--budget 2",
      REPORT_DIR: "out",
    });
    expect(run.code, run.err).toBe(0);
    expect(outputs()).toEqual({ "exit-code": "0", "report-dir": join(dir.path, "out") });
    expect(readFileSync(files.summary, "utf8")).toMatch(/^### ✅ vouch: `finding-verifier` passed \(exit 0\)/);
    for (const f of ["report.html", "junit.xml", "summary.md"]) expect(existsSync(join(dir.path, "out", f)), f).toBe(true);
    expect(step("End with vouch's exit code", { CODE: "0" }).code).toBe(0);
  }, 60_000);

  test("a failing run: the step still records exit 1 and the summary; the last step fails with it; hostile inputs stay data", () => {
    writeFileSync(files.output, "");
    writeFileSync(files.summary, "");
    const items = join(dir.path, "items.txt");
    writeFileSync(items, "bad one\n");
    const run = step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: HOSTILE,
      GRAPH_INPUTS: `items=@${items}\nnote=$(touch ${join(dir.path, "pwned")}); \`touch ${join(dir.path, "pwned2")}\``,
      GRAPH_ARGS: "",
      REPORT_DIR: "failed",
    });
    expect(run.code).toBe(0); // the step records; the last one fails
    expect(outputs()["exit-code"]).toBe("1");
    expect(readFileSync(files.summary, "utf8")).toContain("`hostile-report` failed (exit 1)");
    expect(existsSync(join(dir.path, "pwned")) || existsSync(join(dir.path, "pwned2"))).toBe(false);
    expect(step("End with vouch's exit code", { CODE: "1" }).code).toBe(1);
    expect(step("End with vouch's exit code", { CODE: "" }).code).toBe(3);
  }, 60_000);

  test("a report-dir or vouch-path with a newline cannot add lines to GITHUB_OUTPUT or GITHUB_ENV (a failed run reading exit 0)", () => {
    writeFileSync(files.output, "");
    writeFileSync(files.env, "");
    const items = join(dir.path, "items.txt");
    writeFileSync(items, "bad one\n");
    const run = step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: HOSTILE,
      GRAPH_INPUTS: `items=@${items}`,
      GRAPH_ARGS: "",
      REPORT_DIR: "r\nexit-code=0",
    });
    expect(run.code).not.toBe(0);
    expect(run.err).toContain("report-dir");
    expect(readFileSync(files.output, "utf8")).not.toMatch(/^exit-code=0$/m);
    // The same through a symlink a pull request could check in as the default report-dir.
    writeFileSync(files.output, "");
    mkdirSync(join(dir.path, "t\nexit-code=0"));
    symlinkSync(join(dir.path, "t\nexit-code=0"), join(dir.path, "linked"));
    const linked = step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: HOSTILE,
      GRAPH_INPUTS: `items=@${items}`,
      GRAPH_ARGS: "",
      REPORT_DIR: "linked",
    });
    expect(linked.code).not.toBe(0);
    expect(readFileSync(files.output, "utf8")).not.toMatch(/^exit-code=0$/m);
    // A real binary under a folder whose name holds a newline: realpath finds it.
    const odd = join(dir.path, "bin\nBASH_ENV=evil");
    mkdirSync(odd);
    writeFileSync(join(odd, "vouch"), `#!/bin/sh\nexec "${BINARY}" "$@"\n`, { mode: 0o755 });
    const install = step("Install vouch", { VOUCH_PATH: join(odd, "vouch"), ACTION_DIR: ROOT });
    expect(install.code).not.toBe(0);
    expect(install.err).toContain("vouch-path");
    expect(readFileSync(files.env, "utf8")).not.toContain("BASH_ENV");
  }, 60_000);
});
