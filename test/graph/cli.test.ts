// `vouch validate` and `vouch graph` driven in-process through main(), plus
// readGraphFile; and a few runs of the real binary for usage errors.
import { beforeAll, describe, expect, test } from "vitest";
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { readGraphFile } from "../../src/cli/graph-file.ts";
import { GraphInvalidError, InputError } from "../../src/engine/errors.ts";
import { ensureBinary, runVouch } from "./binary.ts";

const GOOD = "version: 1\nname: good\nnodes:\n  a: { kind: agent, prompt: hi }\n  b: { kind: end, needs: [a] }\n";
const BAD = "version: 1\nname: bad\nnodes:\n  a: { kind: agent, promt: hi }\n  b: { kind: end, needs: [zz] }\n";

const dir = mkdtempSync(join(tmpdir(), "vouch-cli-"));
writeFileSync(join(dir, "good.yaml"), GOOD);
writeFileSync(join(dir, "bad.yaml"), BAD);
mkdirSync(join(dir, "folder"));
writeFileSync(join(dir, "folder", "one.yaml"), GOOD);
writeFileSync(join(dir, "folder", "two.yml"), BAD);
writeFileSync(join(dir, "folder", "notes.txt"), "not a graph");
mkdirSync(join(dir, "folder", "nested"));
writeFileSync(join(dir, "folder", "nested", "deep.yaml"), BAD); // not read: directories are not walked recursively
writeFileSync(join(dir, "latin1.yaml"), Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xe9, 0x0a]));

async function run(...args: string[]) {
  let out = "";
  let err = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env: {},
    cwd: dir,
    streams: process,
  };
  const code = await main(args, io);
  return { code, out, err };
}

describe("vouch validate", () => {
  test("a valid file: exit 0, nothing on stdout, a summary on stderr", async () => {
    expect(await run("validate", "good.yaml")).toEqual({ code: 0, out: "", err: "1 file valid\n" });
  });

  test("problems go to stdout as file:line:col: message (+ hint), the summary to stderr, exit 2", async () => {
    const r = await run("validate", "good.yaml", "bad.yaml");
    expect(r.code).toBe(2);
    expect(r.out).toBe(
      'bad.yaml:4:21: unknown field "promt" in node "a" (did you mean prompt?)\nbad.yaml:5:27: unknown node "zz" in needs\n',
    );
    expect(r.err).toBe("2 files, 1 invalid file, 2 problems\n");
  });

  test("--json prints one JSON array of {file, line, col, message, hint?} and nothing else on stdout", async () => {
    const r = await run("validate", "--json", "bad.yaml", "good.yaml");
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual([
      { file: "bad.yaml", line: 4, col: 21, message: 'unknown field "promt" in node "a" (did you mean prompt?)' },
      { file: "bad.yaml", line: 5, col: 27, message: 'unknown node "zz" in needs' },
    ]);
    expect(JSON.parse((await run("validate", "--json", "good.yaml")).out)).toEqual([]);
  });

  test("a directory stands for its *.yaml and *.yml files", async () => {
    const r = await run("validate", "folder");
    expect(r.code).toBe(2);
    expect(r.err).toBe("2 files, 1 invalid file, 2 problems\n");
    expect(r.out).toContain("folder/two.yml:4:21: ");
  });

  test("a missing or non-UTF-8 file is a problem of that file, and the others are still checked", async () => {
    const r = await run("validate", "nope.yaml", "latin1.yaml", "good.yaml");
    expect(r.code).toBe(2);
    expect(r.out).toBe(
      "nope.yaml:1:1: cannot read graph file nope.yaml: no such file\nlatin1.yaml:1:1: graph file latin1.yaml is not UTF-8 text\n",
    );
    expect(r.err).toBe("3 files, 2 invalid files, 2 problems\n");
  });

  test("usage errors: one line, exit 2", async () => {
    const none = await run("validate");
    expect(none).toEqual({
      code: 2,
      out: "",
      err: "vouch: validate needs at least one graph file\nhint: usage: vouch validate GRAPH... [--json]\n",
    });
    const flag = await run("validate", "--jsno", "good.yaml");
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(/^vouch: validate: Unknown option '--jsno'\nhint: see: vouch validate --help\n$/);
  });
});

describe("vouch graph", () => {
  test("text by default, mermaid and dot on request", async () => {
    expect((await run("graph", "good.yaml")).out).toMatch(/^graph good \(2 nodes\)\n/);
    expect((await run("graph", "good.yaml", "--format", "mermaid")).out).toMatch(/^flowchart TD\n/);
    expect((await run("graph", "good.yaml", "-f", "dot")).out).toMatch(/^digraph "good" \{\n/);
  });

  test("an invalid graph prints its problems on stderr and exits 2", async () => {
    const r = await run("graph", "bad.yaml");
    expect(r).toEqual({
      code: 2,
      out: "",
      err: 'bad.yaml:4:21: unknown field "promt" in node "a" (did you mean prompt?)\nbad.yaml:5:27: unknown node "zz" in needs\nvouch: 2 problems in graph\n',
    });
  });

  test("usage errors: unknown format, no file, two files", async () => {
    expect(await run("graph", "good.yaml", "--format", "png")).toEqual({
      code: 2,
      out: "",
      err: 'vouch: graph: unknown format "png" (formats: text, mermaid, dot)\n',
    });
    expect((await run("graph")).code).toBe(2);
    expect((await run("graph", "good.yaml", "bad.yaml")).err).toMatch(/^vouch: graph takes one graph file, not 2\n/);
  });
});

describe("readGraphFile", () => {
  test("returns the absolute path, the text, the sha256 of the bytes, and the graph", () => {
    const r = readGraphFile("good.yaml", dir, {});
    expect(r.path).toBe(join(dir, "good.yaml"));
    expect(r.text).toBe(GOOD);
    expect(r.digest).toBe(createHash("sha256").update(GOOD).digest("hex"));
    expect(Object.keys(r.graph.nodes)).toEqual(["a", "b"]);
  });

  test("a missing file is an InputError naming the path; an invalid one a GraphInvalidError with every problem", () => {
    expect(() => readGraphFile("nope.yaml", dir, {})).toThrow(new InputError("cannot read graph file nope.yaml: no such file"));
    try {
      readGraphFile("bad.yaml", dir, {});
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(GraphInvalidError);
      expect((e as GraphInvalidError).exitCode).toBe(2);
      expect((e as GraphInvalidError).problems.map((p) => `${p.file}:${p.line}:${p.col}`)).toEqual(["bad.yaml:4:21", "bad.yaml:5:27"]);
    }
  });
});

describe("the real binary", () => {
  beforeAll(() => {
    ensureBinary();
  }, 120_000);

  test("--version, --help and per-command help exit 0", () => {
    expect(runVouch(["--version"])).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^vouch \d+\.\d+\.\d+/) });
    expect(runVouch(["--help"]).stdout).toContain("vouch validate GRAPH...");
    expect(runVouch(["validate", "--help"])).toMatchObject({
      exitCode: 0,
      stdout: expect.stringContaining("Usage: vouch validate GRAPH..."),
    });
    expect(runVouch(["graph", "--help"])).toMatchObject({ exitCode: 0, stdout: expect.stringContaining("--format text|mermaid|dot") });
  });

  test("usage errors exit 2 with one clear line and a hint, no stack trace", () => {
    for (const args of [["validate"], ["validate", "--bogus", "x.yaml"], ["graph", "x.yaml", "--format", "svg"], ["graph"]]) {
      const r = runVouch(args, dir);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^vouch: [^\n]+\n(hint: [^\n]+\n)?$/);
    }
  });
});
