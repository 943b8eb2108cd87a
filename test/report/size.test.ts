// A 1,000-branch run's reports stay small enough to open, upload and post: the
// HTML page under 3 MB, the Markdown summary under GitHub's 1 MiB job-summary
// limit (passed branches are counted, not listed), and the JUnit XML still valid
// with a testcase per branch.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, type TestSuite } from "junit2json";
import { ensureBinary, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { reportOf, XMLLINT } from "./helpers.ts";

const BRANCHES = 1000;
let home: TempDir;
const size: Record<string, number> = {};
const text: Record<string, string> = {};

beforeAll(async () => {
  ensureBinary();
  home = tempDir("size");
  const items = join(home.path, "items.txt");
  writeFileSync(items, Array.from({ length: BRANCHES }, (_, i) => (i % 10 === 0 ? `bad item ${i} <b>&amp;` : `item ${i}`)).join("\n"));
  const run = await vouch(["run", join(import.meta.dirname, "graphs", "wide.yaml"), "-i", `items=@${items}`, "--json"], {
    home: home.path,
  });
  expect(run.code).toBe(1);
  for (const f of ["html", "junit", "markdown"] as const) {
    text[f] = await reportOf(home.path, f);
    size[f] = Buffer.byteLength(text[f]);
  }
  console.log(`[report-size] ${BRANCHES} branches: html ${size.html} bytes, junit ${size.junit}, markdown ${size.markdown}`);
}, 240_000);
afterAll(() => home.cleanup());

describe(`the reports of a ${BRANCHES}-branch run`, () => {
  test("HTML under 3 MB, with a row for every branch", () => {
    expect(size.html).toBeLessThan(3_000_000);
    expect(text.html!.split('<tr class="branch"')).toHaveLength(BRANCHES + 1);
    expect(text.html!.match(/data-status="failed"/g)).toHaveLength(BRANCHES / 10);
  });

  test("Markdown under 1 MiB: failed branches listed, passed ones counted", () => {
    expect(size.markdown).toBeLessThan(1024 * 1024);
    expect(text.markdown).toContain(`${BRANCHES - BRANCHES / 10} passed node(s) in map branches are not listed.`);
    expect(text.markdown).toContain("more failed checks (see the HTML report)");
  });

  test("JUnit: a testcase per branch, the right counts, valid XML", async () => {
    const parsed = (await parse(text.junit!)) as { testsuite: TestSuite[] };
    expect(parsed.testsuite[1]).toMatchObject({ name: "wide.each", tests: BRANCHES, failures: BRANCHES / 10, errors: 0 });
    if (XMLLINT) {
      const file = join(home.path, "wide.xml");
      writeFileSync(file, text.junit!);
      const r = Bun.spawnSync(
        [XMLLINT, "--noout", "--schema", join(import.meta.dirname, "..", "fixtures", "junit", "junit-10.xsd"), file],
        { stderr: "pipe" },
      );
      expect(r.exitCode).toBe(0);
    }
  });
});
