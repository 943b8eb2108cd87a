// The JUnit report as CI reads it: valid against the common JUnit schema
// (test/fixtures/junit/junit-10.xsd, with xmllint), and read by an independent
// JUnit reader from npm (junit2json) with the counts a CI page would show.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse, type TestSuite } from "junit2json";
import { ensureBinary, tempDir, type TempDir } from "../e2e/helpers.ts";
import { xml } from "../../src/report/escape.ts";
import { hostileRun, recoveredRun, reportOf, sayMissing, XMLLINT } from "./helpers.ts";

const XSD = join(import.meta.dirname, "..", "fixtures", "junit", "junit-10.xsd");
let home: TempDir;
let junit: string;

beforeAll(async () => {
  ensureBinary();
  home = tempDir("junit");
  expect((await hostileRun(home.path)).code).toBe(1);
  junit = await reportOf(home.path, "junit");
}, 60_000);
afterAll(() => home.cleanup());

function xmllint(file: string) {
  const r = Bun.spawnSync([XMLLINT!, "--noout", "--schema", XSD, file], { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, err: r.stderr.toString() };
}

describe("vouch report --format junit", () => {
  if (!XMLLINT) sayMissing("xmllint", "libxml2-utils");
  test.skipIf(!XMLLINT)("validates against the JUnit schema (and the schema rejects what it should)", () => {
    const file = join(home.path, "junit.xml");
    writeFileSync(file, junit);
    expect(xmllint(file)).toMatchObject({ code: 0 });
    // The check can fail: a testcase property (not in the schema) is refused.
    writeFileSync(file, junit.replace("<system-out>", "<properties/><system-out>"));
    expect(xmllint(file).code).not.toBe(0);
  });

  test("an independent JUnit reader counts tests, failures, errors and skipped", async () => {
    const parsed = (await parse(junit)) as { testsuite: TestSuite[] };
    const totals = parsed as unknown as { tests: number; failures: number; errors: number };
    expect({ tests: totals.tests, failures: totals.failures, errors: totals.errors }).toEqual({ tests: 7, failures: 3, errors: 1 });
    const [run, map] = parsed.testsuite;
    expect(run).toMatchObject({ name: "hostile-report", tests: 4, failures: 2, errors: 1, skipped: 1 });
    expect(map).toMatchObject({ name: "hostile-report.each", tests: 3, failures: 1, errors: 0, skipped: 0 });
    const cases = parsed.testsuite.flatMap((s) => s.testcase ?? []);
    expect(cases.map((c) => c.name)).toEqual(["evil", "after_evil", "slow", "each", "each[0].one", "each[1].one", "each[2].one"]);
    expect(new Set(cases.map((c) => c.classname))).toEqual(new Set(["hostile-report"]));
    const byName = new Map(cases.map((c) => [c.name, c]));
    expect(byName.get("after_evil")!.skipped).toHaveLength(1);
    expect(byName.get("slow")!.error![0]!.message).toMatch(/error \(timeout\)/);
    expect(byName.get("slow")!.time).toBeGreaterThanOrEqual(1);
    const evil = byName.get("evil")!.failure![0]!;
    expect(evil.message).toBe("check xss failed: exit 1, expected 0");
    expect(evil.inner).toContain("<script>window.__pwned=2</script>"); // as text, unescaped by the reader
    expect(evil.inner).toContain("TAIL-MARKER");
    expect(evil.inner).not.toMatch(/[\u0000-\u0008\u001b]/);
    expect(byName.get("each[1].one")!.failure![0]!.inner).toContain('bad item: "<img src=x onerror=window.__pwned=4> bad"');
    const props = new Map((map!.properties ?? []).map((p) => [p.name, p.value]));
    expect(props.get("each[1].one.qualifier")).toBe("none");
    expect(String(props.get("each[0].one.cost_usd"))).toBe("0");
  });
});

describe("xml(): text from outside in XML", () => {
  const ILLEGAL = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
  // Strings built from the characters that matter: controls, escape sequences,
  // lone surrogates, U+FFFE/U+FFFF, markup, and any other code point.
  const hostile = fc.string({
    unit: fc.oneof(
      fc.constantFrom(
        "\u0000",
        "\u0001",
        "\u000b",
        "\u001b[31m",
        "\u001b]0;t\u0007",
        "\ud800",
        "\udfff",
        "\ufffe",
        "\uffff",
        "<",
        "&",
        '"',
        "]]>",
        "\n",
      ),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    ),
  });
  test("never holds a character XML 1.0 forbids, nor markup of its own", () => {
    expect(xml("a\ufffe\ud800b\u0001c\u001b[31md")).toBe("abcd");
    fc.assert(
      fc.property(hostile, (s) => {
        const out = xml(s);
        expect(out).not.toMatch(ILLEGAL);
        expect(out).not.toMatch(/[<>"]/);
        expect(out.replace(/&(amp|lt|gt|quot|#10);/g, "")).not.toContain("&");
      }),
    );
  });
  test.skipIf(!XMLLINT)("so any string read back by xmllint parses", () => {
    const file = join(home.path, "any.xml");
    const samples = fc.sample(hostile, 200);
    writeFileSync(file, `<r>${samples.map((s) => `<a v="${xml(s)}">${xml(s)}</a>`).join("")}</r>`);
    const r = Bun.spawnSync([XMLLINT!, "--noout", file], { stderr: "pipe" });
    expect(r.stderr.toString()).toBe("");
  });
});

// Issue 27 item 18. Test first: the recovered branch's node was a <failure> (and the
// suite counted it) while the run passed, so CI went red on a run vouch passed.
test("a branch that exhausted: recovered is no failure in JUnit while the run passed", async () => {
  const dir = tempDir("junit-recovered");
  try {
    const run = await recoveredRun(dir.path);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const parsed = (await parse(await reportOf(dir.path, "junit"))) as { testsuite: TestSuite[] };
    const totals = parsed as unknown as { tests: number; failures: number; errors: number };
    expect({ failures: totals.failures, errors: totals.errors }).toEqual({ failures: 0, errors: 0 });
    const cases = parsed.testsuite.flatMap((s) => s.testcase ?? []);
    const bad = cases.find((c) => c.name === "each[1].one")!;
    expect(bad.failure).toBeUndefined();
    expect(bad.skipped![0]!.message).toBe("failed: nonzero_exit, recovered by exhausted: (counts as its recorded output)");
    expect(parsed.testsuite[1]).toMatchObject({ failures: 0, skipped: 1 });
  } finally {
    dir.cleanup();
  }
}, 60_000);
