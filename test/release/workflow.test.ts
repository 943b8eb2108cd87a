// The release workflow (.github/workflows/release.yml), checked by GitHub's own
// workflow parser (@actions/workflow-parser), and its two scripts run for real
// with sh: the tag check, and the npm publishing against a recording fake npm.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { ROOT, tempDir, type TempDir } from "../e2e/helpers.ts";
import pkg from "../../package.json";

const WORKFLOW_FILE = join(ROOT, ".github", "workflows", "release.yml");
const WORKFLOW = readFileSync(WORKFLOW_FILE, "utf8");
const trace = new NoOperationTraceWriter();

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}
const parsed = parseYaml(WORKFLOW) as { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: Record<string, Job> };

/** Parse errors, then the errors of converting the template (where a job's `needs` is checked). */
async function errorsOf(content: string): Promise<string[]> {
  const result = parseWorkflow({ name: "release.yml", content }, trace);
  if (!result.value) return result.context.errors.getErrors().map((e) => e.message);
  await convertWorkflowTemplate(result.context, result.value);
  return result.context.errors.getErrors().map((e) => e.message);
}

describe("the release workflow, parsed by GitHub's workflow parser", () => {
  test("is valid, and the parser says no to a broken copy", async () => {
    expect(await errorsOf(WORKFLOW)).toEqual([]);
    expect((await errorsOf(WORKFLOW.replace("runs-on:", "runs_on:"))).length).toBeGreaterThan(0);
    expect(await errorsOf(WORKFLOW.replace("needs: build", "needs: nowhere"))).toEqual([
      expect.stringContaining("depends on unknown job 'nowhere'"),
    ]);
  });

  test("runs on a version tag only, read-only unless a job says otherwise", () => {
    expect(Object.keys(parsed.on)).toEqual(["push"]);
    expect(parsed.on.push.tags).toEqual(["v*"]);
    expect(parsed.permissions).toEqual({ contents: "read" });
  });

  test("builds after the tag check and the tests, checks SHA256SUMS, then hands dist/release/ on", () => {
    const runs = parsed.jobs.build!.steps.map((s) => s.run ?? s.uses);
    const at = (needle: string) => runs.findIndex((r) => r?.includes(needle));
    expect(at("check-tag.sh")).toBeGreaterThan(-1);
    expect(at("check-tag.sh")).toBeLessThan(at("npm test"));
    expect(at("npm test")).toBeLessThan(at("npm run release"));
    expect(at("npm run release")).toBeLessThan(at("sha256sum -c SHA256SUMS"));
    const upload = parsed.jobs.build!.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload.with).toMatchObject({ name: "release", path: "dist/release/" });
  });

  test("publishes the GitHub release and the npm packages only after the build, each with only the rights it needs", () => {
    const gh = parsed.jobs["github-release"]!;
    const npm = parsed.jobs.npm!;
    expect([gh.needs, npm.needs]).toEqual(["build", "build"]);
    expect(gh.permissions).toEqual({ contents: "write" });
    expect(npm.permissions).toEqual({ contents: "read", "id-token": "write" });
    expect(gh.steps.at(-1)!.run).toContain('gh release create "$TAG"');
    expect(gh.steps.at(-1)!.run).toContain("release/*");
    expect(npm.steps.at(-1)!.run).toBe("sh scripts/release/publish-npm.sh release");
    expect(npm.steps.at(-1)!.env).toEqual({ NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
  });

  test("no script splices an expression into its text: values reach it through env", () => {
    const scripts = Object.values(parsed.jobs).flatMap((j) => j.steps.map((s) => s.run).filter((r): r is string => r !== undefined));
    expect(scripts.length).toBeGreaterThan(5);
    for (const s of scripts) expect(s).not.toContain("${{");
  });
});

describe("scripts/release/check-tag.sh", () => {
  const check = (tag: string) => {
    const r = Bun.spawnSync(["sh", join(ROOT, "scripts", "release", "check-tag.sh"), tag], { stdout: "pipe", stderr: "pipe" });
    return { code: r.exitCode, err: r.stderr.toString() };
  };

  test("accepts v and package.json's version, refuses any other tag with a reason", () => {
    expect(check(`v${pkg.version}`).code).toBe(0);
    for (const tag of [pkg.version, `v${pkg.version}.1`, "v9.9.9", `v${pkg.version}; true`, "-v", ""]) {
      const r = check(tag);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`does not name package.json's version ${pkg.version}`);
    }
  });
});

describe("scripts/release/publish-npm.sh, against a fake npm that records what it is asked", () => {
  let dir: TempDir;
  let bin: string;
  let log: string;
  const version = "1.2.3";
  const names = ["vouch-cli", "@vouch-cli/linux-x64", "@vouch-cli/linux-arm64", "@vouch-cli/darwin-arm64", "@vouch-cli/darwin-x64"];

  /** A packed package as npm pack writes it: package/package.json inside a .tgz. */
  function pack(out: string, name: string): void {
    const src = join(dir.path, "src", name);
    mkdirSync(join(src, "package"), { recursive: true });
    writeFileSync(join(src, "package", "package.json"), JSON.stringify({ name, version }));
    const file = `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
    expect(Bun.spawnSync(["tar", "-czf", join(out, file), "-C", src, "package"]).exitCode).toBe(0);
  }

  beforeAll(() => {
    dir = tempDir("publish");
    bin = join(dir.path, "bin");
    log = join(dir.path, "npm.log");
    mkdirSync(bin);
    // The fake npm: `view` says @vouch-cli/linux-arm64 is already published (and nothing else), `publish` records.
    writeFileSync(
      join(bin, "npm"),
      `#!/bin/sh\necho "$*" >> '${log}'\ncase "$1" in view) [ "$2" = "@vouch-cli/linux-arm64@${version}" ] && exit 0; exit 1 ;; config) [ "$2" = get ] && echo "https://registry.example/"; exit 0 ;; esac\nexit 0\n`,
    );
    chmodSync(join(bin, "npm"), 0o755);
    mkdirSync(join(dir.path, "release"));
    for (const n of names) pack(join(dir.path, "release"), n);
    const sums = Bun.spawnSync(["sh", "-c", "sha256sum *.tgz > SHA256SUMS"], { cwd: join(dir.path, "release") });
    expect(sums.exitCode).toBe(0);
  });
  afterAll(() => dir.cleanup());

  const publish = (folder: string, env: Record<string, string> = {}) => {
    rmSync(log, { force: true });
    const r = Bun.spawnSync(["sh", join(ROOT, "scripts", "release", "publish-npm.sh"), folder], {
      env: { PATH: `${bin}:/usr/bin:/bin`, ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    let calls: string[] = [];
    try {
      calls = readFileSync(log, "utf8").trim().split("\n");
    } catch {
      // npm was never called
    }
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString(), calls };
  };

  test("publishes every platform package before the wrapper, skips one already published, sets the token", () => {
    const r = publish(join(dir.path, "release"), { NODE_AUTH_TOKEN: "secret-token" });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const published = r.calls.filter((c) => c.startsWith("publish ")).map((c) => c.split(" ")[1]!.replace(/^.*\//, ""));
    expect(published).toEqual([
      `vouch-cli-darwin-arm64-${version}.tgz`,
      `vouch-cli-darwin-x64-${version}.tgz`,
      `vouch-cli-linux-x64-${version}.tgz`,
      `vouch-cli-${version}.tgz`,
    ]);
    for (const c of r.calls.filter((c) => c.startsWith("publish "))) expect(c).toContain("--access public --provenance");
    expect(r.out).toContain(`publish: @vouch-cli/linux-arm64@${version} is already published, skipped`);
    expect(r.calls).toContain("config set //registry.example/:_authToken secret-token");
  });

  test("refuses a folder whose SHA256SUMS does not match before publishing anything", () => {
    const copy = join(dir.path, "tampered");
    cpSync(join(dir.path, "release"), copy, { recursive: true });
    writeFileSync(join(copy, `vouch-cli-${version}.tgz`), "not the packed wrapper");
    const r = publish(copy, { NODE_AUTH_TOKEN: "secret-token" });
    expect(r.code).not.toBe(0);
    expect(r.calls).toEqual([]);
  });

  test("refuses a folder with no wrapper package", () => {
    const copy = join(dir.path, "no-wrapper");
    cpSync(join(dir.path, "release"), copy, { recursive: true });
    rmSync(join(copy, `vouch-cli-${version}.tgz`));
    Bun.spawnSync(["sh", "-c", "sha256sum *.tgz > SHA256SUMS"], { cwd: copy });
    const r = publish(copy);
    expect(r.code).toBe(1);
    expect(r.err).toContain("must hold exactly one wrapper package");
    expect(r.calls.filter((c) => c.startsWith("publish "))).toEqual([]);
  });
});
