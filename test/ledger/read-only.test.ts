// Reading a ledger needs no write access (docs/ledger.md): through dist/vouch,
// `runs` and `show` read a ledger whose folder and files are read-only, after a
// clean end (no -wal) and after a crash (the -wal holds commits the main file
// lacks). And a VOUCH_HOME that is a file is refused with exit 2, saying so.
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { BINARY, ensureBinary } from "../graph/binary.ts";
import { eventually, groupAlive, killQuietly } from "../spawn/helpers.ts";
import { startVouch, tempProject, vouch, vouchEnv, type Project } from "../resume/vouch-process.ts";

let p: Project;
let leftovers: number[] = [];
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => (p = tempProject("vouch-ro-")));
afterEach(() => {
  killQuietly(leftovers.map((pid) => -pid));
  leftovers = [];
  if (existsSync(p.home)) setWritable(true);
  p.cleanup();
});

// chmod does not stop root: as root, the reader runs without the capabilities
// that override file permissions (setpriv), so a-w binds it as it binds a user.
const ROOT_USER = process.getuid?.() === 0;
const SETPRIV = Bun.which("setpriv");
const canSimulate = !ROOT_USER || SETPRIV !== null;
if (!canSimulate) console.warn("test/ledger/read-only.test.ts: read-only cases skipped: running as root without setpriv");

function setWritable(on: boolean, folderToo = true): void {
  const files = readdirSync(p.home)
    .filter((f) => f.startsWith("ledger.sqlite"))
    .map((f) => join(p.home, f));
  for (const f of files) chmodSync(f, on ? 0o600 : 0o400);
  if (folderToo) chmodSync(p.home, on ? 0o700 : 0o500);
}

/** dist/vouch as a reader that may not write what a-w protects. */
async function reader(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = ROOT_USER ? [SETPRIV!, "--bounding-set=-dac_override,-dac_read_search", BINARY, ...args] : [BINARY, ...args];
  const proc = Bun.spawn(argv, { cwd: p.dir, env: vouchEnv(p), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, stdout, stderr };
}

const GRAPH = "version: 1\nname: ro\nnodes:\n  a: { kind: script, argv: [sh, -c, 'echo hi'] }\n";

describe.skipIf(!canSimulate)("a read-only ledger", () => {
  test("runs and show read it, the write is still refused: folder and files read-only, no -wal", async () => {
    p.write("graph.yaml", GRAPH);
    expect((await vouch(p, ["run", "graph.yaml", "--plain"])).code).toBe(0);
    expect(existsSync(join(p.home, "ledger.sqlite-wal"))).toBe(false);
    setWritable(false);
    // The capability drop really binds: the reader cannot create a file there.
    const probe = await reader(["run", "graph.yaml", "--plain"]);
    expect(probe.code).toBe(3);
    expect(probe.stderr).toContain("cannot write");

    const runs = await reader(["runs", "--json"]);
    expect([runs.code, runs.stderr]).toEqual([0, ""]);
    expect(JSON.parse(runs.stdout)).toMatchObject([{ graph: "ro", status: "passed", exit_code: 0 }]);
    const text = await reader(["runs"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/\bro +passed/);
    const shown = await reader(["show", "last"]);
    expect([shown.code, shown.stderr]).toEqual([0, ""]);
    expect(shown.stdout).toMatch(/\na +passed/);
    expect((await reader(["show", "last", "--json"])).code).toBe(0);
  });

  test("only the files read-only (the folder writable): runs and show read it", async () => {
    p.write("graph.yaml", GRAPH);
    expect((await vouch(p, ["run", "graph.yaml", "--plain"])).code).toBe(0);
    setWritable(false, false);
    const runs = await reader(["runs", "--json"]);
    expect([runs.code, runs.stderr]).toEqual([0, ""]);
    expect(JSON.parse(runs.stdout)).toHaveLength(1);
    expect((await reader(["show", "last"])).code).toBe(0);
  });

  test("after a crash the -wal holds the run: a read-only reader sees it (abandoned)", async () => {
    p.write(
      "graph.yaml",
      "version: 1\nname: crashed\nnodes:\n  slow: { kind: script, argv: [sh, -c, 'echo $$ > pid; exec sleep 30'], timeout: 1m }\n",
    );
    const s = startVouch(p, ["run", "graph.yaml", "--plain"]);
    expect(await eventually(() => existsSync(join(p.dir, "pid")) && readFileSync(join(p.dir, "pid"), "utf8").trim() !== "", 15_000)).toBe(
      true,
    );
    leftovers = [Number(readFileSync(join(p.dir, "pid"), "utf8"))];
    s.proc.kill("SIGKILL");
    await s.done;
    killQuietly(leftovers.map((pid) => -pid));
    expect(await eventually(() => !groupAlive(leftovers[0]!), 5_000)).toBe(true);
    // The commits are in the -wal: the main file alone holds no run.
    expect(existsSync(join(p.home, "ledger.sqlite-wal"))).toBe(true);
    expect(existsSync(join(p.home, "ledger.sqlite-shm"))).toBe(true);
    setWritable(false);
    const runs = await reader(["runs", "--json"]);
    expect([runs.code, runs.stderr]).toEqual([0, ""]);
    expect(JSON.parse(runs.stdout)).toMatchObject([{ graph: "crashed", status: "abandoned" }]);
    const shown = await reader(["show", "last"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("\nstatus   abandoned\n");
    expect(shown.stdout).toMatch(/\nslow +unfinished/);
  });
});

describe("VOUCH_HOME that is not a folder", () => {
  test.each([
    ["runs", ["runs"]],
    ["runs --json", ["runs", "--json"]],
    ["show", ["show", "last"]],
    ["run", ["run", "graph.yaml", "--plain"]],
    ["resume", ["resume", "last"]],
  ])("%s: exit 2, saying VOUCH_HOME is a file", async (_name, args) => {
    p.write("graph.yaml", GRAPH);
    const file = p.write("home-file", "not a folder\n");
    const r = await vouch(p, args, { VOUCH_HOME: file });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `vouch: VOUCH_HOME is a file, not a folder: ${file}\nhint: set VOUCH_HOME to a folder (vouch creates it when missing), or move the file away\n`,
    );
  });

  test("a VOUCH_HOME inside a file names the file", async () => {
    p.write("graph.yaml", GRAPH);
    const file = p.write("home-file", "x");
    const r = await vouch(p, ["run", "graph.yaml", "--plain"], { VOUCH_HOME: join(file, "deeper", ".vouch") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`vouch: VOUCH_HOME (${join(file, "deeper", ".vouch")}) is inside a file, not a folder: ${file}\n`);
    writeFileSync(file, "x"); // untouched
  });
});
