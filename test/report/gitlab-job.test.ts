// docs/ci.md's GitLab job: its `vouch` line run with bash as a GitLab runner would, in a
// faked GitLab environment (CI_PROJECT_DIR, a checkout of the sample project), with
// dist/vouch as `vouch` (the job's `npm install` line reaches the registry, which a test
// does not). The files `artifacts: reports:` names are written however the run ends,
// and each is what GitLab reads: JUnit, and Code Quality with paths relative to the
// project.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { parse as parseJunit } from "junit2json";
import { BINARY, ensureBinary, ROOT, SAMPLE_REPO, tempDir, type TempDir } from "../e2e/helpers.ts";
import { validCodeQuality } from "./ci-validate.ts";

const CI_DOC = readFileSync(join(ROOT, "docs", "ci.md"), "utf8");
const JOB_YAML = /## A GitLab job[\s\S]*?```yaml\n([\s\S]*?)```/.exec(CI_DOC)![1]!;
interface Job {
  image: string;
  script: string[];
  artifacts: { when: string; paths: string[]; reports: { junit: string; codequality: string } };
}
const job = (parseYaml(JOB_YAML) as { vouch: Job }).vouch;

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("gitlab");
});
afterAll(() => dir.cleanup());

describe("docs/ci.md's GitLab job", () => {
  test("the job: an install line, one vouch run writing the reports, artifacts kept also when the job fails", () => {
    expect(job.script).toHaveLength(2);
    expect(job.script[0]).toMatch(/^npm install --global vouch-cli@\d+\.\d+\.\d+$/);
    expect(job.script[1]).toMatch(/^vouch run /);
    expect(job.artifacts.when).toBe("always");
    for (const f of [job.artifacts.reports.junit, job.artifacts.reports.codequality, ...job.artifacts.paths])
      expect(job.script[1]).toContain(`:${f}`);
  });

  test("its vouch line in a faked GitLab checkout with a lint failure: every report GitLab reads is there and valid, the failure at its line", async () => {
    const project = join(dir.path, "builds", "group", "project");
    mkdirSync(join(project, "graphs"), { recursive: true });
    cpSync(SAMPLE_REPO, project, { recursive: true });
    cpSync(join(ROOT, "graphs", "checks-only.yaml"), join(project, "graphs", "checks-only.yaml"));
    // The project's format check as a linter would print it (path:line: message), and a file it finds.
    writeFileSync(
      join(project, "scripts", "fmt-check"),
      `#!/bin/sh\ngrep -nE ' +$' src/*.js | sed 's/^\\([^:]*:[0-9]*\\):.*/\\1: trailing spaces/'\n`,
      { mode: 0o755 },
    );
    writeFileSync(join(project, "src", "messy.js"), "export const a = 1;\nexport const b = 2;   \n");
    const bin = join(dir.path, "bin");
    mkdirSync(bin);
    symlinkSync(BINARY, join(bin, "vouch"));
    // As the runner runs a script line: bash, -e, in CI_PROJECT_DIR.
    const p = Bun.spawn(["bash", "--noprofile", "--norc", "-e", "-c", job.script[1]!], {
      cwd: project,
      env: {
        PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
        HOME: dir.path,
        TZ: "UTC",
        CI: "true",
        GITLAB_CI: "true",
        CI_PROJECT_DIR: project,
        CI_PROJECT_URL: "https://gitlab.example/group/project",
        CI_COMMIT_SHA: "c".repeat(40),
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(code, stderr).toBe(1);
    for (const f of [job.artifacts.reports.junit, job.artifacts.reports.codequality, ...job.artifacts.paths])
      expect(existsSync(join(project, f)), f).toBe(true);
    const junit = await parseJunit(readFileSync(join(project, job.artifacts.reports.junit), "utf8"));
    expect(junit).toBeTruthy();
    const issues = validCodeQuality(readFileSync(join(project, job.artifacts.reports.codequality), "utf8"));
    expect(issues.length).toBeGreaterThan(0);
    // Paths relative to CI_PROJECT_DIR: the failed checks' node and graph are placed in the project.
    expect(issues.map((i) => [i.check_name, i.location.path, i.location.lines.begin])).toContainEqual([
      "vouch/check/fmt",
      "src/messy.js",
      2,
    ]);
    expect(issues.map((i) => i.location.path)).toContain("graphs/checks-only.yaml");
    for (const i of issues) expect(existsSync(join(project, i.location.path)), i.location.path).toBe(true);
  }, 90_000);
});
