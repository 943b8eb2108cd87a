// The README's claims that a test can hold: its graph example validates, its
// shipped-graph table names real files, its jq examples work on a real run,
// and its exit-code table matches the code.
import { existsSync, readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { EXIT } from "../../src/engine/errors.ts";
import { ensureBinary, ROOT } from "../graph/binary.ts";
import { sampleCopy, vouch } from "../shipped/run-shipped.ts";

const README = readFileSync(join(ROOT, "README.md"), "utf8");

beforeAll(() => {
  ensureBinary();
}, 60_000);

describe("README", () => {
  test("the graph-language example validates", () => {
    const blocks = [...README.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(loadGraph("README.md", block).problems).toEqual([]);
  });

  test("every graph the README names is shipped, and every shipped graph is named", () => {
    const named = [...README.matchAll(/`([a-z-]+\.yaml)`/g)].map((m) => m[1]!).filter((n) => existsSync(join(ROOT, "graphs", n)));
    for (const file of ["finding-verifier.yaml", "step-runner.yaml", "parallel-review.yaml", "checks-only.yaml"]) {
      expect(named).toContain(file);
    }
  });

  test("the exit-code table matches the code", () => {
    const rows = [...README.matchAll(/^\| (\d+) \| ([a-z]+)/gm)].map((m) => [Number(m[1]), m[2]]);
    expect(rows).toEqual([
      [EXIT.passed, "passed"],
      [EXIT.failed, "failed"],
      [EXIT.usage, "usage"],
      [EXIT.error, "error"],
      [EXIT.paused, "paused"],
      [EXIT.interrupted, "interrupted"],
    ]);
  });

  // Without jq the test is reported as skipped, not passed: a green run proves nothing then.
  test.skipIf(!Bun.which("jq"))("the CI section's jq lines work on a real --json run (needs jq)", () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-readme-"));
    const broken = sampleCopy();
    writeFileSync(join(broken, "src", "bad.js"), "const x = 1;\n"); // exports nothing: the tests check fails
    const r = vouch(["run", "graphs/checks-only.yaml", "-i", `project_dir=${broken}`, "--json"]);
    expect(r.exitCode).toBe(1);
    const file = join(dir, "events.ndjson");
    writeFileSync(file, r.stdout);
    const lines = [...README.matchAll(/^jq (.*) events\.ndjson$/gm)].map((m) => m[1]!);
    expect(lines).toHaveLength(2);
    const jq = (filter: string) => Bun.spawnSync(["sh", "-c", `jq ${filter} "${file}"`], { stdout: "pipe" });
    const failures = jq(lines[0]!);
    expect(failures.exitCode).toBe(0);
    expect(failures.stdout.toString()).toContain("tests: exit 1, expected 0\nFAIL src/bad.js exports nothing");
    const summary = JSON.parse(jq(lines[1]!).stdout.toString());
    expect(summary).toMatchObject({ status: "failed", exit_code: 1, counts: { failed: 1 } });
  });
});
