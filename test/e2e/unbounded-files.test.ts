// Files that never end, through dist/vouch (issue 12, item 10): a graph or an
// `-i NAME=@FILE` that is /dev/zero, a FIFO, a directory or an oversize (sparse)
// file is refused with exit 2 and a message saying what it is — never read for
// ever. Before, `vouch validate /dev/zero` grew past 2 GB and a FIFO blocked.
// No timed assertion: each process has a kill timer as a safety net only, so a
// broken build fails the test (killed: no exit 2) instead of hanging the suite.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BINARY, cleanEnv, ensureBinary, FINDING_VERIFIER, STACK_LINE, tempDir, type TempDir } from "./helpers.ts";

let dir: TempDir;
let fifo: string;
let sparse: string;
let folder: string;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("unbounded");
  fifo = join(dir.path, "pipe.yaml");
  execFileSync("mkfifo", [fifo]);
  sparse = join(dir.path, "huge.yaml");
  execFileSync("truncate", ["-s", "20G", sparse]); // sparse: no disk used
  folder = join(dir.path, "folder.yaml");
  mkdirSync(folder);
}, 120_000);
afterAll(() => dir.cleanup());

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

/** The binary with a 30 s kill timer (a safety net: a hang fails instead of blocking the suite). */
async function vouchBounded(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const home = join(dir.path, "home");
  const p = Bun.spawn([BINARY, ...args], { cwd: dir.path, env: cleanEnv({ home, env }), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    p.kill("SIGKILL");
  }, 30_000);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr, killed };
}

function refused(r: Ran): void {
  expect(r.killed, "vouch had to be killed: it read for ever").toBe(false);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr + r.stdout).not.toMatch(STACK_LINE);
  expect(r.stderr + r.stdout).not.toMatch(/internal error/);
}

const RUN = (graph: string, ...more: string[]) => ["run", graph, "--harness", "replay", ...more];

describe("a graph file that is not a regular file, or too large, is refused (exit 2)", () => {
  const cases = () => [
    { name: "/dev/zero", path: "/dev/zero", says: /it is a character device, not a regular file/ },
    { name: "a FIFO", path: fifo, says: /it is a pipe \(FIFO\), not a regular file/ },
    { name: "a 20 GB sparse file", path: sparse, says: /is 20 GiB, over the limit of 4 MiB/ },
  ];
  for (const command of ["validate", "graph", "run"] as const) {
    test.concurrent(`vouch ${command}`, async () => {
      for (const c of cases()) {
        const r = await vouchBounded(command === "run" ? RUN(c.path) : [command, c.path]);
        refused(r);
        expect(r.stdout + r.stderr, c.name).toMatch(c.says);
      }
    });
  }

  test("the size hint names the variable that raises the limit; raising it lets the file through to the loader", async () => {
    const r = await vouchBounded(["validate", FINDING_VERIFIER], { VOUCH_MAX_GRAPH_BYTES: "1KiB" });
    refused(r);
    expect(r.stdout).toMatch(/finding-verifier\.yaml is 4\.\d KiB, over the limit of 1 KiB\n {4}hint: .*set VOUCH_MAX_GRAPH_BYTES/);
    expect((await vouchBounded(["validate", FINDING_VERIFIER], { VOUCH_MAX_GRAPH_BYTES: "8KiB" })).code).toBe(0);
    const bad = await vouchBounded(["validate", FINDING_VERIFIER], { VOUCH_MAX_GRAPH_BYTES: "lots" });
    refused(bad);
    expect(bad.stderr).toMatch(/^vouch: VOUCH_MAX_GRAPH_BYTES="lots" is not a size\n/);
  });
});

describe("-i NAME=@FILE that is not a regular file, or too large, is refused before the run starts", () => {
  const args = (file: string) => RUN(FINDING_VERIFIER, "-i", `findings=@${file}`);
  test.concurrent.for([
    {
      name: "/dev/zero",
      file: () => "/dev/zero",
      says: /^vouch: cannot read --input findings=@\/dev\/zero: it is a character device, not a regular file$/m,
    },
    {
      name: "a FIFO",
      file: () => fifo,
      says: /^vouch: cannot read --input findings=@.*pipe\.yaml: it is a pipe \(FIFO\), not a regular file$/m,
    },
    {
      name: "a directory",
      file: () => folder,
      says: /^vouch: cannot read --input findings=@.*folder\.yaml: it is a directory, not a regular file$/m,
    },
    {
      name: "a 20 GB sparse file",
      file: () => sparse,
      says: /^vouch: --input findings=@.*huge\.yaml is 20 GiB, over the limit of 64 MiB\nhint: .*VOUCH_MAX_INPUT_BYTES/m,
    },
  ])("$name", async (c, { expect }) => {
    const r = await vouchBounded(args(c.file()));
    refused(r);
    expect(r.stderr).toMatch(c.says);
  });

  test("VOUCH_MAX_INPUT_BYTES lowers (or raises) the limit", async () => {
    const review = join(dir.path, "review.md");
    writeFileSync(review, "F1: x\n".repeat(1000));
    const r = await vouchBounded(args(review), { VOUCH_MAX_INPUT_BYTES: "4k" });
    refused(r);
    expect(r.stderr).toMatch(/^vouch: --input findings=@.*review\.md is 5\.9 KiB, over the limit of 4 KiB$/m);
  });
});

test("resume re-reads the graph the same way: a graph replaced by a FIFO is refused (exit 2)", async () => {
  const graph = join(dir.path, "gated.yaml");
  writeFileSync(
    graph,
    "version: 1\nname: gated\nnodes:\n  gate: { kind: approval, prompt: go? }\n  after: { kind: script, needs: [gate], run: 'true' }\n",
  );
  const first = await vouchBounded(["run", graph, "--plain"]);
  expect(first.code, first.stderr).toBe(4);
  const id = /run (\S+) started/.exec(first.stdout)![1]!;
  rmSync(graph);
  execFileSync("mkfifo", [graph]);
  const r = await vouchBounded(["resume", id, "--approve", "gate"]);
  refused(r);
  expect(r.stderr).toMatch(/^vouch: cannot read graph file .*gated\.yaml: it is a pipe \(FIFO\), not a regular file$/m);
});

test("a replay fixture is read under the input limit too: over it, the sitting is unavailable and says why", async () => {
  const r = await vouchBounded([...RUN(FINDING_VERIFIER, "-i", "findings=x", "--json")], { VOUCH_MAX_INPUT_BYTES: "3000" });
  expect(r.killed).toBe(false);
  const parse = r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((e) => e.type === "node.finished" && e.node === "parse");
  expect(parse).toMatchObject({ status: "error" });
  expect(parse.error).toMatch(/replay fixture .*parse\.jsonl is 3\.2 KiB, over the limit of 2\.9 KiB/);
});
