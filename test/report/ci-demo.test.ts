// The CI formats of the shipped demos, through dist/vouch, against goldens
// (test/report/golden/): `npm run demo` (the finding verifier, replayed) and
// `npm run demo:parallel` (four tasks in worktrees, then the merge). The SARIF is valid
// against the official schema, the Code Quality report against GitLab's format, and the
// annotations are what GitHub's runner would read. Run ids, temporary folders and the
// demo repository's commit are masked. UPDATE_GOLDEN=1 rewrites the goldens.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_ARGS, ensureBinary, ROOT, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { runnerCommands } from "./ci-fixtures.ts";
import { validCodeQuality, validSarif } from "./ci-validate.ts";

const GOLDEN = join(import.meta.dirname, "golden");
type Format = "github" | "sarif" | "codequality";
const EXT: Record<Format, string> = { github: "txt", sarif: "json", codequality: "json" };

function golden(name: string, format: Format, text: string): void {
  const file = join(GOLDEN, `${name}.${format}.${EXT[format]}`);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) writeFileSync(file, text);
  expect(text).toBe(readFileSync(file, "utf8"));
}

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("ci-demo");
});
afterAll(() => dir.cleanup());

/** The three reports of the last run, validated as written, then masked for the goldens. */
async function reports(home: string, root: string, mask: (t: string) => string): Promise<Record<Format, string>> {
  const out = {} as Record<Format, string>;
  for (const f of ["github", "sarif", "codequality"] as const) {
    const r = await vouch(["report", "last", "--format", f, "--root", root], { home, cwd: root });
    expect(r.code, r.stderr).toBe(0);
    if (f === "sarif") validSarif(r.stdout);
    if (f === "codequality") validCodeQuality(r.stdout);
    out[f] = mask(r.stdout);
  }
  return out;
}

describe("npm run demo (the finding verifier)", () => {
  let run: Record<Format, string>;
  beforeAll(async () => {
    const home = join(dir.path, "demo");
    const ran = await vouch(["run", ...DEMO_ARGS, "--plain"], { home });
    expect(ran.code).toBe(0);
    const id = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(ran.stdout)![1]!;
    run = await reports(home, ROOT, (t) => t.replaceAll(id, "<RUN>").replaceAll(ROOT, "<ROOT>"));
  }, 120_000);

  test("annotations: the verified findings at their evidence, the failed citation check at the line it names, the failed and error branch nodes", () => {
    golden("finding-verifier", "github", run.github);
    const commands = runnerCommands(run.github);
    expect(run.github.trimEnd().split("\n")).toHaveLength(commands.length);
    expect(
      commands.filter((c) => c.properties.title?.includes("verified")).map((c) => `${c.properties.file}:${c.properties.line}`),
    ).toEqual(["examples/sample-repo/src/cache.js:16", "examples/sample-repo/src/slug.js:5"]);
    expect(commands.some((c) => c.properties.title?.includes("unverifiable"))).toBe(false);
  });

  test("SARIF: valid, VERIFIED findings with their evidence, UNVERIFIABLE as notes, FALSE counted", () => {
    golden("finding-verifier", "sarif", run.sarif);
    const [r] = (JSON.parse(run.sarif) as { runs: Record<string, any>[] }).runs;
    const findings = r!.results.filter((x: any) => x.ruleId === "vouch/finding");
    expect(findings.map((x: any) => [x.level, x.properties["vouch.verdict"]])).toEqual([
      ["warning", "VERIFIED"],
      ["warning", "VERIFIED"],
      ["note", "UNVERIFIABLE"],
      ["note", "UNVERIFIABLE"],
      ["note", "UNVERIFIABLE"],
    ]);
    expect(findings[0].relatedLocations.map((l: any) => l.physicalLocation.artifactLocation.uri)).toEqual([
      "examples/sample-repo/src/cache.js",
      "examples/sample-repo/src/cache.js",
    ]);
    expect(r!.properties["vouch.findings.refuted"]).toBe(1);
  });

  test("Code Quality: valid for GitLab", () => {
    golden("finding-verifier", "codequality", run.codequality);
    expect((JSON.parse(run.codequality) as unknown[]).length).toBeGreaterThan(0);
  });
});

describe("npm run demo:parallel (worktrees, then the merge)", () => {
  test("the tampered task annotated, SARIF with the worktrees' base commit, Code Quality valid", async () => {
    const home = join(dir.path, "parallel");
    const p = Bun.spawn(["sh", join(ROOT, "scripts", "demo-parallel.sh"), "--plain"], {
      cwd: dir.path,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir.path, TZ: "UTC", VOUCH_HOME: home, TMPDIR: dir.path },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, , code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(code).toBe(0);
    const repo = /the demo's repository: (\S+)/.exec(out)![1]!;
    const id = /run (\d{8}-\d{6}-[0-9a-f]{6})/.exec(out)![1]!;
    const commit = Bun.spawnSync(["git", "-C", repo, "rev-parse", "HEAD"]).stdout.toString().trim();
    const run = await reports(home, repo, (t) =>
      t.replaceAll(id, "<RUN>").replaceAll(repo, "<REPO>").replaceAll(commit, "<COMMIT>").replaceAll(ROOT, "<ROOT>"),
    );
    golden("parallel-implement", "github", run.github);
    golden("parallel-implement", "sarif", run.sarif);
    golden("parallel-implement", "codequality", run.codequality);
    expect(runnerCommands(run.github).map((c) => c.properties.title)).toContain("vouch: implement_each[2].implement failed");
    const [r] = (JSON.parse(run.sarif) as { runs: Record<string, any>[] }).runs;
    expect(r!.versionControlProvenance[0].revisionId).toBe("<COMMIT>");
  }, 120_000);
});
