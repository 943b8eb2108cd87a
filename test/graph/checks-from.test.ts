// checks_from (issue 18, part 2): checks files merged into a graph's library, in
// process (the loader with a reader port) and through dist/vouch (validate, run,
// checks, resume). Hostile paths are refused at the entry's file:line:col.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ChecksReader } from "../../src/engine/graph/checks-library.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { loadChecksFile } from "../../src/engine/graph/checks-file.ts";
import { ensureBinary, STACK_LINE, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";

const files =
  (map: Record<string, string>): ChecksReader =>
  (p) =>
    p in map ? { text: map[p]! } : { error: `no such file ${p}` };
const at = (ps: { file: string; line: number; col: number; message: string }[]) =>
  ps.map((p) => `${p.file}:${p.line}:${p.col} ${p.message}`);

const GRAPH = `version: 1
name: g
checks_from: [./lib.checks.yaml]
nodes:
  a: { kind: script, run: "true", success: { checks: [tests] } }
`;

describe("the loader", () => {
  test("a check named from a checks file is known, and the valid graph's library holds it", () => {
    const r = loadGraph("dir/g.yaml", GRAPH, {
      readChecks: files({ "dir/lib.checks.yaml": "checks:\n  tests: { run: ./t, description: the tests }\n" }),
    });
    expect(r.problems).toEqual([]);
    expect(r.graph!.checks).toEqual({ tests: { run: "./t", description: "the tests" } });
  });

  test("without the file the check is unknown; without a reader checks_from is refused at the entry", () => {
    expect(at(loadGraph("g.yaml", GRAPH).problems)).toEqual([
      'g.yaml:3:15 checks_from "./lib.checks.yaml": checks files cannot be read here',
      'g.yaml:5:55 unknown check "tests"',
    ]);
  });

  test("a name defined twice is refused with both places: graph and file, and two files", () => {
    const graph = GRAPH.replace(
      "checks_from: [./lib.checks.yaml]",
      "checks_from: [./lib.checks.yaml, ./more.checks.yaml]\nchecks:\n  build: { run: make }",
    );
    const r = loadGraph("g.yaml", graph, {
      readChecks: files({
        "lib.checks.yaml": "checks:\n  tests: { run: ./t }\n  build: { run: ./b }\n",
        "more.checks.yaml": "# more\nchecks:\n  tests: { run: ./t2 }\n",
      }),
    });
    expect(at(r.problems)).toEqual([
      'lib.checks.yaml:3:3 check "build" is defined twice: at g.yaml:5:3 and at lib.checks.yaml:3:3',
      'more.checks.yaml:3:3 check "tests" is defined twice: at lib.checks.yaml:2:3 and at more.checks.yaml:3:3',
    ]);
  });

  test("the same file twice is refused at the second entry", () => {
    const graph = GRAPH.replace("[./lib.checks.yaml]", "[./lib.checks.yaml, lib.checks.yaml]");
    const r = loadGraph("g.yaml", graph, { readChecks: files({ "lib.checks.yaml": "checks:\n  tests: { run: ./t }\n" }) });
    expect(at(r.problems)).toEqual(["g.yaml:3:34 checks_from names lib.checks.yaml twice"]);
  });

  test("a planned graph may name checks from its checks_from: their commands are the user's", () => {
    const graph = GRAPH.replace("name: g", "name: g\norigin: planned").replace(
      'kind: script, run: "true"',
      "kind: agent, prompt: do it, workspace: { mode: worktree }",
    );
    const lib = "protect: []\nchecks:\n  tests: { run: ./t }\n";
    const r = loadGraph("g.yaml", graph, { readChecks: files({ "lib.checks.yaml": lib }) });
    expect(r.problems).toEqual([]);
    // ...while its own checks: are commands, refused.
    const own = graph.replace("nodes:", "checks:\n  mine: { run: ./x }\nnodes:");
    expect(at(loadGraph("g.yaml", own, { readChecks: files({ "lib.checks.yaml": lib }) }).problems)).toEqual([
      "g.yaml:6:11 run: commands are refused in a planned graph (origin: planned)",
    ]);
  });
});

test("each problem points at its own entry, whatever entries before it are (not strings, empty, NUL)", () => {
  const graph = 'version: 1\nname: g\nchecks_from: ["", 3, "a\\0b", ./missing.checks.yaml]\nnodes:\n  a: { kind: end }\n';
  expect(at(loadGraph("g.yaml", graph, { readChecks: files({}) }).problems)).toEqual([
    "g.yaml:3:15 a checks_from entry is a path to a checks file",
    "g.yaml:3:19 checks_from[1] must be a string, not a number (3)",
    "g.yaml:3:22 a checks_from path cannot hold a NUL character",
    'g.yaml:3:30 checks_from "./missing.checks.yaml": no such file missing.checks.yaml',
  ]);
});

test("a graph named as a checks file is said to be a graph", () => {
  const r = loadGraph("g.yaml", GRAPH, { readChecks: files({ "lib.checks.yaml": GRAPH }) });
  expect(at(r.problems)).toContain("lib.checks.yaml:1:1 this is a graph (it has nodes:), not a checks file, which holds only checks:");
});

describe("a checks file", () => {
  test("holds only checks:, with static commands and valid regular expressions; reserved names refused", () => {
    const r = loadChecksFile(
      "c.checks.yaml",
      'inputs: {}\nchecks:\n  t: { run: "echo {{ inputs.x }}", expect: { output_matches: "(" } }\n  __proto__: { run: x }\n',
    );
    expect(at(r.problems)).toEqual([
      'c.checks.yaml:1:1 a checks file holds only checks: (found "inputs")',
      "c.checks.yaml:3:19 a template in a run: command is refused",
      "c.checks.yaml:3:62 output_matches is not a valid regular expression: missing )",
      'c.checks.yaml:4:3 "__proto__" cannot be a check name: every JavaScript object already has a member of that name',
    ]);
  });

  test("an empty file, a list, a bad field: each a problem, never a throw", () => {
    expect(at(loadChecksFile("c", "").problems)).toEqual(["c:1:1 the file is empty"]);
    expect(at(loadChecksFile("c", "- a\n").problems)).toEqual(["c:1:1 a checks file is a mapping with one key, checks:"]);
    expect(at(loadChecksFile("c", "checks:\n  t: { runn: x }\n").problems)[0]).toMatch(/^c:2:\d+ unknown field "runn" in check "t"/);
  });
});

describe("through dist/vouch", () => {
  let dir: TempDir;
  beforeAll(() => {
    ensureBinary();
    dir = tempDir("checks-from");
    mkdirSync(join(dir.path, "g", "lib"), { recursive: true });
    mkdirSync(join(dir.path, "g", "folder.checks.yaml"));
    execFileSync("mkfifo", [join(dir.path, "g", "pipe.checks.yaml")]);
    execFileSync("truncate", ["-s", "20G", join(dir.path, "g", "huge.checks.yaml")]);
    writeFileSync(
      join(dir.path, "g", "lib", "vouch.checks.yaml"),
      'checks:\n  ok: { run: "true", description: always passes }\n  bad: { run: "cat marker; exit 1", description: fails while marker says so }\n',
    );
  }, 120_000);
  afterAll(() => dir.cleanup());
  const home = () => join(dir.path, "home");

  test("hostile checks_from paths (/dev/zero, a folder, a FIFO, a 20 GB file, missing) are refused at their entries, exit 2", async () => {
    writeFileSync(
      join(dir.path, "g", "hostile.yaml"),
      'version: 1\nname: h\nchecks_from:\n  - /dev/zero\n  - ./folder.checks.yaml\n  - ./pipe.checks.yaml\n  - ./huge.checks.yaml\n  - ./missing.checks.yaml\nnodes:\n  a: { kind: script, run: "true" }\n',
    );
    const r = await vouch(["validate", "g/hostile.yaml"], { home: home(), cwd: dir.path });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toMatch(STACK_LINE);
    const lines = r.stdout.split("\n").filter((l) => l.startsWith("g/"));
    expect(lines).toEqual([
      'g/hostile.yaml:4:5: checks_from "/dev/zero": cannot read checks file /dev/zero: it is a character device, not a regular file',
      'g/hostile.yaml:5:5: checks_from "./folder.checks.yaml": cannot read checks file g/folder.checks.yaml: it is a directory, not a regular file',
      'g/hostile.yaml:6:5: checks_from "./pipe.checks.yaml": cannot read checks file g/pipe.checks.yaml: it is a pipe (FIFO), not a regular file',
      expect.stringMatching(
        /^g\/hostile\.yaml:7:5: checks_from "\.\/huge\.checks\.yaml": checks file g\/huge\.checks\.yaml is 20(\.0)? GiB, over the limit of 4(\.0)? MiB$/,
      ),
      expect.stringMatching(
        /^g\/hostile\.yaml:8:5: checks_from "\.\/missing\.checks\.yaml": cannot read checks file g\/missing\.checks\.yaml: /,
      ),
    ]);
  }, 60_000);

  test("paths are relative to the graph file, whatever folder vouch runs in; the file's checks run", async () => {
    writeFileSync(
      join(dir.path, "g", "uses.yaml"),
      'version: 1\nname: u\nchecks_from: [./lib/vouch.checks.yaml]\nnodes:\n  a: { kind: script, run: "true", success: { checks: [ok] } }\n',
    );
    const r = await vouch(["run", join(dir.path, "g", "uses.yaml"), "--json"], { home: home(), cwd: "/" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"name":"ok"');
    const listed = await vouch(["checks", "g/uses.yaml", "--json"], { home: home(), cwd: dir.path });
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: "ok", description: "always passes", run: "true", timeout_ms: null, expect: null, defined_at: "g/lib/vouch.checks.yaml:2:3" },
      {
        name: "bad",
        description: "fails while marker says so",
        run: "cat marker; exit 1",
        timeout_ms: null,
        expect: null,
        defined_at: "g/lib/vouch.checks.yaml:3:3",
      },
    ]);
    const text = await vouch(["checks", "g/lib/vouch.checks.yaml"], { home: home(), cwd: dir.path });
    expect(text.stdout).toContain("2 checks in g/lib/vouch.checks.yaml:");
    expect(text.stdout).toMatch(/ok {3}always passes\n\s+run: true — g\/lib\/vouch\.checks\.yaml:2:3/);
    expect((await vouch(["checks", "--help"], { home: home() })).stdout).toContain("Usage: vouch checks [FILE] [--json]");
    expect((await vouch(["checks"], { home: home(), cwd: dir.path })).stderr).toContain("no vouch.checks.yaml in this folder");
  });

  test("a sub-graph's library is its own: its checks_from is relative to it, and resume sees its checks file change", async () => {
    mkdirSync(join(dir.path, "g", "sub"), { recursive: true });
    writeFileSync(
      join(dir.path, "g", "sub", "own.checks.yaml"),
      'checks:\n  sub_bad: { run: "cat \\"$VOUCH_GRAPH_DIR/../../marker\\"; exit 1" }\n',
    );
    writeFileSync(
      join(dir.path, "g", "sub", "inner.yaml"),
      'version: 1\nname: inner\nchecks_from: [./own.checks.yaml]\nnodes:\n  s: { kind: script, run: "true", success: { checks: [sub_bad] } }\n',
    );
    writeFileSync(join(dir.path, "g", "outer.yaml"), "version: 1\nname: outer\nnodes:\n  inner: { kind: graph, use: ./sub/inner.yaml }\n");
    const h = join(dir.path, "home-sub");
    const first = await vouch(["run", "g/outer.yaml", "--json"], { home: h, cwd: dir.path });
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toContain('"name":"sub_bad"');
    writeFileSync(join(dir.path, "g", "sub", "own.checks.yaml"), 'checks:\n  sub_bad: { run: "true" }\n');
    const refused = await vouch(["resume", "last"], { home: h, cwd: dir.path });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("changed since run");
    // The outer graph does not see the inner library.
    writeFileSync(
      join(dir.path, "g", "outer2.yaml"),
      'version: 1\nname: outer2\nnodes:\n  inner: { kind: graph, use: ./sub/inner.yaml }\n  b: { kind: script, run: "true", success: { checks: [sub_bad] } }\n',
    );
    const v = await vouch(["validate", "g/outer2.yaml"], { home: h, cwd: dir.path });
    expect(v.code).toBe(2);
    expect(v.stdout).toContain('unknown check "sub_bad"');
  });

  test("resume refuses when a checks file changed since the run started, as for a changed graph", async () => {
    writeFileSync(
      join(dir.path, "g", "fails.yaml"),
      'version: 1\nname: f\nchecks_from: [./lib/vouch.checks.yaml]\nnodes:\n  a: { kind: script, run: "true", success: { checks: [bad] } }\n',
    );
    writeFileSync(join(dir.path, "marker"), "failing\n");
    const h = join(dir.path, "home-resume");
    const first = await vouch(["run", "g/fails.yaml", "--json"], { home: h, cwd: dir.path });
    expect(first.code).toBe(1);
    // Unchanged: resume is allowed (and fails again).
    expect((await vouch(["resume", "last", "--json"], { home: h, cwd: dir.path })).code).toBe(1);
    writeFileSync(join(dir.path, "g", "lib", "vouch.checks.yaml"), 'checks:\n  ok: { run: "true" }\n  bad: { run: "true" }\n');
    const refused = await vouch(["resume", "last"], { home: h, cwd: dir.path });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the graph file .*fails\.yaml changed since run/);
    expect((await vouch(["resume", "last", "--force", "--json"], { home: h, cwd: dir.path })).code).toBe(0);
  });
});
