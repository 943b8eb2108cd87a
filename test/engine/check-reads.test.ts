// What a sealed check reads from the base (ADR 0043): the words of its command,
// the files runners read by convention, protect, from_base and from_result.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  commandReads,
  commandWords,
  fromBasePaths,
  witnessFromResult,
  type CheckTreeInput,
} from "../../src/engine/workspace/check-reads.ts";

describe("commandWords", () => {
  const words = (run: string) => commandWords(run).map((w) => `${w.starts ? "^" : ""}${w.text}${w.dynamic ? "$" : ""}`);
  test.each([
    ["./scripts/test", ["^./scripts/test"]],
    ['sh test/has.sh "$f"', ["^sh", "test/has.sh", "$f$"]],
    ["make -C sub check && npm test", ["^make", "-C", "sub", "check", "^npm", "test"]],
    ["'a b'.sh x\\ y |grep -q ok", ["^a b.sh", "x y", "^grep", "-q", "ok"]],
    ["pytest tests/*.py $ARGS ~/x", ["^pytest", "tests/*.py$", "$ARGS$", "~/x$"]],
    ["echo hi # ./not/this\n./then/this", ["^echo", "hi", "^./then/this"]],
    ["(cd sub; ./run)>out.txt 2>&1", ["^cd", "sub", "^./run", "out.txt", "^2", "1"]],
    ["if ./probe; then make; fi", ["^if", "^./probe", "^then", "^make", "^fi"]],
  ])("%j", (run, expected) => {
    expect(words(run)).toEqual(expected);
  });
  test("never throws, whatever the text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "/", " ", "'", '"', "\\", "$", "*", ";", "#", "\n", "~", "=", "&", "|") }),
        (run) => {
          expect(Array.isArray(commandWords(run))).toBe(true);
        },
      ),
    );
  });
});

describe("commandReads: the scripts a command runs, not the data it reads", () => {
  test("a path in command position, an interpreter's script, make -f: relative to where the check runs, never outside the repository", () => {
    expect(commandReads("sh ../lib/t.sh && ./run x.txt && /abs/x && ../../out && make -f ci.mk", "pkg/").paths.sort()).toEqual(
      ["lib/t.sh", "pkg/ci.mk", "pkg/run"].sort(),
    );
  });
  test("data a command reads is not a script: test -f a.txt, grep x src/a.js, pytest tests/x.py, --config=FILE", () => {
    expect(commandReads("test -f a.txt && grep x src/a.js && pytest tests/x.py && jest --config=ci/jest.js", "").paths).toEqual([]);
  });
  test("python -m and sh -c run no script file; env, timeout and assignments before a command are skipped", () => {
    expect(commandReads("python -m pytest && sh -c 'exit 0'", "").paths).toEqual([]);
    expect(commandReads("CI=1 env A=b timeout 60 ./scripts/test && bun run ./x.ts && node tools/gen.js", "").paths).toEqual([
      "scripts/test",
      "x.ts",
      "tools/gen.js",
    ]);
  });
  test("npm reads package.json and the test runner's config where it runs; pytest every conftest.py; make -C its Makefile there", () => {
    const r = commandReads("npm test && make -C tools lint && python -m pytest -q", "app/");
    expect(r.globs).toContain("app/package.json");
    expect(r.globs).toContain("app/vitest.config.*");
    expect(r.globs).toContain("app/tools/Makefile");
    expect(r.globs).toContain("**/conftest.py");
    expect(r.globs).toContain("app/pyproject.toml");
  });
});

const input = (o: Partial<CheckTreeInput>): CheckTreeInput => ({
  run: "true",
  prefix: "",
  protect: [],
  graphFiles: [],
  baseFiles: ["package.json", "src/a.js", "test/a.test.js", "scripts/test", "conftest.py", "vouch.yaml", "Makefile"],
  commitFiles: ["package.json", "src/a.js", "test/a.test.js", "scripts/test", "src/conftest.py"],
  ...o,
});

describe("fromBasePaths", () => {
  test("a script the command runs, the graph's files and protected paths come from base; the agent's source does not", () => {
    expect(fromBasePaths(input({ run: "./scripts/test", protect: ["test/**"], graphFiles: ["vouch.yaml"] }))).toEqual([
      "scripts/test",
      "test/a.test.js",
      "vouch.yaml",
    ]);
  });
  test("npm test: package.json from base; pytest: every conftest.py (one the agent added is removed); make: the Makefile", () => {
    expect(fromBasePaths(input({ run: "npm test" }))).toEqual(["package.json"]);
    expect(fromBasePaths(input({ run: "pytest" }))).toEqual(["conftest.py", "src/conftest.py"]);
    expect(fromBasePaths(input({ run: "make check" }))).toEqual(["Makefile"]);
  });
  test("from_result keeps a named or conventional path from the commit, never a protected or from_base one", () => {
    expect(fromBasePaths(input({ run: "npm test", fromResult: ["package.json"] }))).toEqual([]);
    expect(fromBasePaths(input({ run: "npm test", fromResult: ["package.json"], protect: ["package.json"] }))).toEqual(["package.json"]);
    expect(fromBasePaths(input({ run: "true", fromBase: ["src/**"], fromResult: ["src/**"] }))).toEqual(["src/a.js", "src/conftest.py"]);
  });
  test("whatever the command and lists, every path it takes is a file of one of the trees, and protected files are always among them", () => {
    const word = fc.constantFrom("npm", "test", "./scripts/test", "src/a.js", "pytest", "make", "&&", "../x", "$X", "'src/a.js'");
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 6 }),
        fc.subarray(["src/**", "test/**", "*.json"]),
        fc.subarray(["src/**", "*.json"]),
        (w, protect, fromResult) => {
          const c = input({ run: w.join(" "), protect, fromResult });
          const out = fromBasePaths(c);
          const files = new Set([...c.baseFiles, ...c.commitFiles]);
          expect(out.every((p) => files.has(p))).toBe(true);
          const protectedFiles = fromBasePaths(input({ run: "true", protect }));
          expect(protectedFiles.every((p) => out.includes(p))).toBe(true);
        },
      ),
    );
  });
});

describe("witnessFromResult", () => {
  test("the from_result paths of the commit, never a protected one", () => {
    expect(witnessFromResult(input({ fromResult: ["test/**", "src/conftest.py"], protect: ["src/**"] }))).toEqual(["test/a.test.js"]);
    expect(witnessFromResult(input({}))).toEqual([]);
  });
});
