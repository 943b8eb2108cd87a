// The GitHub Action (action.yml, scripts/action/, ADR 0060) and docs/ci.md's workflow:
// parsed and validated by GitHub's own workflow parser (@actions/workflow-parser), and
// the action's shell steps run for real with bash as the runner runs them (each step's
// `run:` text in a file, `bash --noprofile --norc -eo pipefail FILE`, the GITHUB_ENV,
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), against dist/vouch and a release served
// from this process. Annotations are read from the step's stdout as the runner reads
// them (runnerCommands: `::stop-commands::` honoured).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { parseWorkflow, NoOperationTraceWriter } from "@actions/workflow-parser";
import { parseAction, convertActionTemplate } from "@actions/workflow-parser/actions/index";
import { BINARY, ensureBinary, ROOT, SAMPLE_REPO, tempDir, type TempDir } from "../e2e/helpers.ts";
import { archiveName, TARGETS } from "../../scripts/release/packages.ts";
import { runnerCommands } from "./ci-fixtures.ts";
import { validSarif } from "./ci-validate.ts";
import { HOSTILE } from "./helpers.ts";

const ACTION = readFileSync(join(ROOT, "action.yml"), "utf8");
const CI_DOC = readFileSync(join(ROOT, "docs", "ci.md"), "utf8");
const ACTION_GRAPH = join(import.meta.dirname, "graphs", "action.yaml");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const trace = new NoOperationTraceWriter();

function errorsOf(result: { context: { errors: { getErrors(): { message: string }[] } } }): string[] {
  return result.context.errors.getErrors().map((e) => e.message);
}
type Step = { name: string; run?: string; uses?: string; with?: Record<string, string>; env?: Record<string, string> };
const ACTION_STEPS = (parseYaml(ACTION) as { runs: { steps: Step[] } }).runs.steps;
/** docs/ci.md's first yaml block: the complete GitHub workflow. */
const WORKFLOW = /```yaml\n([\s\S]*?)```/.exec(CI_DOC)![1]!;

describe("GitHub's workflow parser accepts the action and docs/ci.md's workflow", () => {
  test("action.yml: a valid composite action with the documented inputs and outputs", () => {
    const parsed = parseAction({ name: "action.yml", content: ACTION }, trace);
    expect(errorsOf(parsed)).toEqual([]);
    const action = convertActionTemplate(parsed.context, parsed.value!);
    expect(action.runs.using).toBe("composite");
    expect(action.inputs!.map((i) => i.id)).toEqual([
      "graph",
      "inputs",
      "args",
      "version",
      "vouch-path",
      "release-url",
      "report-dir",
      "annotations",
      "job-summary",
      "upload-artifact",
      "artifact-name",
      "working-directory",
    ]);
    expect(action.inputs!.find((i) => i.id === "graph")!.required).toBe(true);
    expect(action.outputs!.map((o) => o.id)).toEqual(["status", "exit-code", "run-id", "report", "junit", "sarif", "report-dir"]);
    expect(ACTION_STEPS.map((s) => s.uses).filter(Boolean)).toEqual(["actions/upload-artifact@v4"]);
    // The parser can say no: a composite step without `shell` is an error.
    const broken = parseAction(
      { name: "action.yml", content: ACTION.replace("    - name: Install vouch\n      shell: bash\n", "    - name: Install vouch\n") },
      trace,
    );
    expect(errorsOf(broken).length + (broken.value ? 0 : 1)).toBeGreaterThan(0);
  });

  test("each shell step runs one script of scripts/action/ that exists, and splices no input into it", () => {
    const runs = ACTION_STEPS.filter((s) => s.run !== undefined);
    expect(runs.map((s) => s.run!.trim())).toEqual([
      'bash "$ACTION_DIR/scripts/action/install-vouch.sh"',
      'bash "$ACTION_DIR/scripts/action/run-graph.sh"',
      'bash "$ACTION_DIR/scripts/action/end-step.sh"',
    ]);
    for (const s of runs) {
      expect(s.run).not.toContain("${{");
      expect(existsSync(join(ROOT, /scripts\/action\/[\w-]+\.sh/.exec(s.run!)![0]))).toBe(true);
    }
  });

  test("docs/ci.md's workflow is valid, uses the action with declared inputs, uploads its SARIF, splices nothing into a script", () => {
    const parsed = parseWorkflow({ name: "vouch.yml", content: WORKFLOW }, trace);
    expect(errorsOf(parsed)).toEqual([]);
    const job = (parseYaml(WORKFLOW) as { jobs: Record<string, { steps: Step[]; permissions?: Record<string, string> }> }).jobs.vouch!;
    const step = job.steps.find((s) => s.uses?.includes("/vouch@"))!;
    const declared = Object.keys((parseYaml(ACTION) as { inputs: Record<string, unknown> }).inputs);
    for (const key of Object.keys(step.with!)) expect(declared).toContain(key);
    const upload = job.steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif@"))!;
    expect(upload.with!.sarif_file).toBe("${{ steps.vouch.outputs.sarif }}");
    expect(job.permissions?.["security-events"]).toBe("write");
    expect(
      parseWorkflow({ name: "bad.yml", content: WORKFLOW.replace("runs-on:", "runs_on:") }, trace).context.errors.getErrors().length,
    ).toBeGreaterThan(0);
    for (const s of job.steps.filter((x) => x.run !== undefined)) expect(s.run).not.toContain("${{");
  });

  test("the README's Action step, put in a job, is valid and names only declared inputs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const snippet = /```yml\n([\s\S]*?)```/.exec(readme)![1]!;
    const workflow = `on: push\njobs:\n  vouch:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n${snippet}`;
    expect(errorsOf(parseWorkflow({ name: "readme.yml", content: workflow }, trace))).toEqual([]);
    const step = (parseYaml(workflow) as { jobs: { vouch: { steps: Step[] } } }).jobs.vouch.steps[1]!;
    const declared = Object.keys((parseYaml(ACTION) as { inputs: Record<string, unknown> }).inputs);
    expect(Object.keys(step.with!).every((k) => declared.includes(k))).toBe(true);
  });
});

// --- the shell steps, as the runner runs them --------------------------------
let dir: TempDir;
let files: { env: string; output: string; summary: string };
let release: { url: string; stop(): void; requests: string[] };

/** A release for this machine: the archive (holding a small vouch that runs dist/vouch) and SHA256SUMS. */
async function makeRelease(root: string, version = VERSION, tamper: "none" | "archive" | "sums" = "none"): Promise<string> {
  const target = `${process.platform === "darwin" ? "darwin" : "linux"}-${process.arch === "arm64" ? "arm64" : "x64"}`;
  // Named as the release names its archives (scripts/release/packages.ts), for a target it builds.
  expect(TARGETS.map((t) => t.key)).toContain(target);
  const name = archiveName(version, target).replace(/\.tar\.gz$/, "");
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, "vouch"), `#!/bin/sh\nexec "${BINARY}" "$@"\n`, { mode: 0o755 });
  expect(Bun.spawnSync(["tar", "-czf", `${name}.tar.gz`, name], { cwd: root }).exitCode).toBe(0);
  const sum = Bun.spawnSync(["sha256sum", `${name}.tar.gz`], { cwd: root }).stdout.toString();
  writeFileSync(join(root, "SHA256SUMS"), tamper === "sums" ? sum.replace(`${name}.tar.gz`, "other.tar.gz") : sum);
  if (tamper === "archive") writeFileSync(join(root, `${name}.tar.gz`), "not the archive SHA256SUMS names");
  return name;
}

beforeAll(() => {
  ensureBinary();
  dir = tempDir("action");
  mkdirSync(join(dir.path, "noaction"));
  files = { env: join(dir.path, "github_env"), output: join(dir.path, "github_output"), summary: join(dir.path, "summary") };
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(path);
      const file = join(dir.path, "releases", path);
      return existsSync(file) ? new Response(Bun.file(file)) : new Response("not found", { status: 404 });
    },
  });
  release = { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true), requests };
});
afterAll(() => {
  release.stop();
  dir.cleanup();
});

function reset() {
  for (const f of Object.values(files)) writeFileSync(f, "");
}

/** One step of action.yml by name, its `run:` text run as the runner runs it. Spawned, not spawnSync: the release server answers from this process. */
async function step(name: string, env: Record<string, string>, cwd = dir.path) {
  const script = join(dir.path, "step.sh");
  writeFileSync(script, ACTION_STEPS.find((s) => s.name === name)!.run!);
  const p = Bun.spawn(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd,
    env: {
      PATH: env.PATH ?? process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir.path,
      TZ: "UTC",
      VOUCH_HOME: join(dir.path, ".vouch"),
      RUNNER_TEMP: dir.path,
      ACTION_DIR: ROOT,
      GITHUB_ENV: files.env,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}
const outputs = () =>
  Object.fromEntries(
    readFileSync(files.output, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
/** The install step downloads with curl (.ci/run installs it). */
const CURL = Bun.which("curl");
if (!CURL) console.log("[skipped] curl is not installed (Debian package curl; .ci/run installs it): the release-install tests are skipped");
/** PATH without any vouch on it. */
const BARE_PATH = "/usr/local/bin:/usr/bin:/bin";

describe("Install vouch", () => {
  test("vouch-path: that binary, as VOUCH_BIN", async () => {
    reset();
    const r = await step("Install vouch", { VOUCH_PATH: BINARY });
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(files.env, "utf8")).toBe(`VOUCH_BIN=${BINARY}\n`);
  });

  test.skipIf(!CURL)("version: the release archive, checked against SHA256SUMS before it is unpacked", async () => {
    reset();
    const releaseDir = join(dir.path, "releases", `v${VERSION}`);
    const name = await makeRelease(releaseDir);
    const r = await step("Install vouch", { VOUCH_VERSION: VERSION, RELEASE_URL: `${release.url}/v{version}`, PATH: BARE_PATH });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(new RegExp(`installed vouch ${VERSION} \\(${name}.tar.gz, SHA-256 [0-9a-f]{64}\\)`));
    const bin = /^VOUCH_BIN=(.*)$/m.exec(readFileSync(files.env, "utf8"))![1]!;
    expect(bin.endsWith(`/${name}/vouch`)).toBe(true);
    expect(release.requests.slice(-2)).toEqual([`/v${VERSION}/SHA256SUMS`, `/v${VERSION}/${name}.tar.gz`]);
  });

  test.skipIf(!CURL)("no input and no vouch on PATH: the action's own version is installed", async () => {
    reset();
    const r = await step("Install vouch", { RELEASE_URL: `${release.url}/v{version}`, PATH: BARE_PATH });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`installed vouch ${VERSION}`);
  });

  test("a vouch on PATH is used when no version is asked for", async () => {
    reset();
    const bin = join(dir.path, "pathbin");
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, "vouch"))) symlinkSync(BINARY, join(bin, "vouch"));
    const r = await step("Install vouch", { PATH: `${bin}:${BARE_PATH}` });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`using the vouch on PATH: ${bin}/vouch`);
  });

  test.skipIf(!CURL)("an archive that does not match SHA256SUMS, or one SHA256SUMS does not list, is not installed (exit 3)", async () => {
    for (const tamper of ["archive", "sums"] as const) {
      reset();
      const version = tamper === "archive" ? "9.9.1" : "9.9.2";
      await makeRelease(join(dir.path, "releases", `v${version}`), version, tamper);
      const r = await step("Install vouch", { VOUCH_VERSION: version, RELEASE_URL: `${release.url}/v{version}`, PATH: BARE_PATH });
      expect([tamper, r.code]).toEqual([tamper, 3]);
      expect(r.err).toMatch(tamper === "archive" ? /does not match SHA256SUMS .*not installed/ : /SHA256SUMS of 9\.9\.2 lists no/);
      expect(readFileSync(files.env, "utf8")).toBe("");
    }
  });

  test.skipIf(!CURL)("a version that is none, or a missing release, stops the step", async () => {
    reset();
    expect((await step("Install vouch", { VOUCH_VERSION: "1.0; rm -rf /", PATH: BARE_PATH })).code).toBe(2);
    const missing = await step("Install vouch", { VOUCH_VERSION: "8.8.8", RELEASE_URL: `${release.url}/v{version}`, PATH: BARE_PATH });
    expect(missing.code).toBe(3);
    expect(missing.err).toContain("could not download");
  });
});

describe("Run the graph", () => {
  test("the demo passes: summary, outputs (status, exit-code, run-id, report, junit, sarif), every report written", async () => {
    reset();
    const r = await step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: join(ROOT, "graphs", "finding-verifier.yaml"),
      GRAPH_INPUTS: `findings=@${join(SAMPLE_REPO, "REVIEW.md")}\nproject_dir=${SAMPLE_REPO}\n`,
      GRAPH_ARGS: "--harness=replay\n--budget\n2",
      REPORT_DIR: "out",
      // The runner's checkout: annotations are placed relative to it.
      GITHUB_WORKSPACE: ROOT,
    });
    expect(r.code, r.err).toBe(0);
    const o = outputs();
    const out = join(dir.path, "out");
    expect(o).toEqual({
      "exit-code": "0",
      status: "passed",
      "run-id": expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{6}$/),
      "report-dir": out,
      report: join(out, "report.html"),
      junit: join(out, "junit.xml"),
      sarif: join(out, "vouch.sarif"),
    });
    for (const f of ["report.html", "junit.xml", "summary.md", "vouch.sarif"]) expect(existsSync(join(out, f)), f).toBe(true);
    validSarif(readFileSync(join(out, "vouch.sarif"), "utf8"));
    expect(readFileSync(files.summary, "utf8")).toMatch(/^### ✅ vouch: `finding-verifier` passed \(exit 0\)/);
    expect(r.out).toContain(`run ${o["run-id"]} started`);
    // The annotations come after workflow commands are on again; vouch's own progress lines are not commands.
    const commands = runnerCommands(r.out);
    expect(commands[0]!.command).toBe("stop-commands");
    const annotations = commands.slice(1);
    expect(annotations.length).toBeGreaterThan(0);
    for (const c of annotations) expect(["error", "warning", "notice"]).toContain(c.command);
    expect(annotations.some((c) => c.properties.file === "examples/sample-repo/src/cache.js" && c.properties.line === "16")).toBe(true);
    expect((await step("End with vouch's exit code", { CODE: o["exit-code"]! })).code).toBe(0);
  }, 90_000);

  test("an argument line keeps its spaces (args was split at spaces: `--input=note=two words` was two arguments, exit 2)", async () => {
    reset();
    const r = await step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: ACTION_GRAPH,
      GRAPH_INPUTS: "",
      GRAPH_ARGS: "--input=note=two words",
      REPORT_DIR: "spaces",
    });
    expect(r.code, r.err).toBe(0);
    expect(outputs()["exit-code"]).toBe("1"); // the graph's check fails on purpose; the graph ran
    const sarif = readFileSync(join(dir.path, "spaces", "vouch.sarif"), "utf8");
    expect(sarif).toContain("the note was two words");
  }, 60_000);

  test("a failing run: exit 1 and status failed recorded, a check printing workflow commands is never obeyed, the last step fails with the code", async () => {
    reset();
    const r = await step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: ACTION_GRAPH,
      GRAPH_INPUTS: "note=::set-output name=status::passed",
      GRAPH_ARGS: "",
      REPORT_DIR: "failed",
    });
    expect(r.code).toBe(0); // the step records; the last one fails
    expect(outputs()).toMatchObject({ "exit-code": "1", status: "failed" });
    const commands = runnerCommands(r.out);
    expect(commands.map((c) => c.command)).toEqual(["stop-commands", "error", "error"]);
    const [, check, node] = commands;
    expect(check!.properties).toEqual({ file: "src/app.ts", line: "7", col: "3", title: "vouch: check hostile failed in echo" });
    expect(check!.data).toBe("the note was ::set-output name=status::passed");
    expect(node!.properties.title).toBe("vouch: echo failed");
    // The token that stops commands is fresh each run and no check can print it.
    const again = await step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: ACTION_GRAPH,
      GRAPH_INPUTS: "",
      GRAPH_ARGS: "",
      REPORT_DIR: "failed",
    });
    const token = (out: string) => /^::stop-commands::([0-9a-f]{32})$/m.exec(out)![1];
    expect(token(again.out)).not.toBe(token(r.out));
    expect((await step("End with vouch's exit code", { CODE: "1" })).code).toBe(1);
    expect((await step("End with vouch's exit code", { CODE: "" })).code).toBe(3);
    expect((await step("End with vouch's exit code", { CODE: "0; exit 0" })).code).toBe(3);
  }, 60_000);

  test("annotations and the job summary can be switched off", async () => {
    reset();
    const r = await step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: ACTION_GRAPH,
      GRAPH_ARGS: "",
      REPORT_DIR: "quiet",
      ANNOTATIONS: "false",
      JOB_SUMMARY: "false",
    });
    expect(r.code).toBe(0);
    expect(runnerCommands(r.out).map((c) => c.command)).toEqual(["stop-commands"]);
    expect(readFileSync(files.summary, "utf8")).toBe("");
  }, 60_000);

  test("a graph that does not load: exit 2, no run id, no status, no summary", async () => {
    reset();
    const r = await step("Run the graph", { VOUCH_BIN: BINARY, GRAPH: join(dir.path, "missing.yaml"), GRAPH_ARGS: "", REPORT_DIR: "none" });
    expect(r.code).toBe(0);
    expect(outputs()).toMatchObject({ "exit-code": "2", status: "", "run-id": "" });
    expect(r.err).toContain("vouch ran no graph (exit 2)");
    expect(readFileSync(files.summary, "utf8")).toBe("");
  }, 60_000);

  test("docs/ci.md's lines for CI without the Action: the summary appended, the annotations printed, the run's code", async () => {
    reset();
    const block = /Without the Action, the same in any CI:\n\n```sh\n([\s\S]*?)```/.exec(CI_DOC)![1]!;
    const script = join(dir.path, "no-action.sh");
    writeFileSync(script, block.replaceAll("GRAPH", ACTION_GRAPH));
    const p = Bun.spawn(["bash", "--noprofile", "--norc", "-e", script], {
      cwd: join(dir.path, "noaction"),
      env: {
        PATH: `${dirname(BINARY)}:${BARE_PATH}`,
        HOME: dir.path,
        VOUCH_HOME: join(dir.path, "noaction-home"),
        GITHUB_STEP_SUMMARY: files.summary,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, , code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(code).toBe(1);
    expect(readFileSync(files.summary, "utf8")).toContain("`action-run` failed (exit 1)");
    expect(runnerCommands(out).map((c) => c.command)).toContain("error");
  }, 60_000);

  test("hostile inputs stay data: a command substitution in an input runs nothing", async () => {
    reset();
    const items = join(dir.path, "items.txt");
    writeFileSync(items, "bad one\n");
    const r = await step("Run the graph", {
      VOUCH_BIN: BINARY,
      GRAPH: HOSTILE,
      GRAPH_INPUTS: `items=@${items}\nnote=$(touch ${join(dir.path, "pwned")}); \`touch ${join(dir.path, "pwned2")}\``,
      GRAPH_ARGS: "",
      REPORT_DIR: "hostile",
    });
    expect(r.code).toBe(0);
    expect(outputs()["exit-code"]).toBe("1");
    expect(readFileSync(files.summary, "utf8")).toContain("`hostile-report` failed (exit 1)");
    expect(existsSync(join(dir.path, "pwned")) || existsSync(join(dir.path, "pwned2"))).toBe(false);
  }, 60_000);

  test("a report-dir or vouch-path with a newline cannot add lines to GITHUB_OUTPUT or GITHUB_ENV", async () => {
    reset();
    const run = await step("Run the graph", { VOUCH_BIN: BINARY, GRAPH: ACTION_GRAPH, GRAPH_ARGS: "", REPORT_DIR: "r\nexit-code=0" });
    expect(run.code).not.toBe(0);
    expect(run.err).toContain("report-dir");
    expect(readFileSync(files.output, "utf8")).not.toMatch(/^exit-code=0$/m);
    // The same through a symlink a pull request could check in as the default report-dir.
    reset();
    mkdirSync(join(dir.path, "t\nexit-code=0"), { recursive: true });
    if (!existsSync(join(dir.path, "linked"))) symlinkSync(join(dir.path, "t\nexit-code=0"), join(dir.path, "linked"));
    const linked = await step("Run the graph", { VOUCH_BIN: BINARY, GRAPH: ACTION_GRAPH, GRAPH_ARGS: "", REPORT_DIR: "linked" });
    expect(linked.code).not.toBe(0);
    expect(readFileSync(files.output, "utf8")).not.toMatch(/^exit-code=0$/m);
    // A real binary under a folder whose name holds a newline: realpath finds it.
    const odd = join(dir.path, "bin\nBASH_ENV=evil");
    mkdirSync(odd, { recursive: true });
    writeFileSync(join(odd, "vouch"), `#!/bin/sh\nexec "${BINARY}" "$@"\n`, { mode: 0o755 });
    reset();
    const install = await step("Install vouch", { VOUCH_PATH: join(odd, "vouch") });
    expect(install.code).not.toBe(0);
    expect(install.err).toContain("vouch-path");
    expect(readFileSync(files.env, "utf8")).not.toContain("BASH_ENV");
  }, 60_000);
});
