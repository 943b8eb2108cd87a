// A damaged ledger through the binary (issue 27 item 13, ADR 0048): bytes
// overwritten in the middle of .vouch/ledger.sqlite. Test first: `vouch runs` was
// silent (exit 0), `vouch show` said "internal error … this is a bug in vouch",
// and `vouch run` went on writing into the file.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ensureBinary, tempDir, vouch, type TempDir } from "./helpers.ts";

beforeAll(() => void ensureBinary(), 120_000);
let dir: TempDir;
beforeEach(() => (dir = tempDir("damage")));
afterEach(() => dir.cleanup());

const GRAPH = "version: 1\nname: small\nnodes:\n  a: { kind: script, run: 'echo a', success: { checks: [{ name: ok, run: 'true' }] } }\n";

async function ledgerWithRuns(n: number): Promise<{ home: string; file: string; graph: string }> {
  const graph = join(dir.path, "g.yaml");
  writeFileSync(graph, GRAPH);
  const home = join(dir.path, "home");
  for (let i = 0; i < n; i++) expect((await vouch(["run", graph, "--plain"], { home, cwd: dir.path })).code).toBe(0);
  return { home, file: join(home, "ledger.sqlite"), graph };
}

const snapshot = (home: string) =>
  Object.fromEntries(
    readdirSync(home)
      .filter((f) => f.startsWith("ledger"))
      .map((f) => [f, readFileSync(join(home, f))]),
  );

async function expectRefusedEverywhere(home: string, file: string, graph: string, what: RegExp) {
  const before = snapshot(home);
  for (const args of [["runs"], ["show", "last"], ["run", graph, "--plain"]]) {
    const r = await vouch(args, { home, cwd: dir.path });
    expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(3);
    expect(r.stderr).toContain(`vouch: the ledger ${file} is damaged (`);
    expect(r.stderr).toMatch(what);
    expect(r.stderr).toContain(`hint: keep a copy, then move it away`);
    expect(r.stderr).not.toMatch(/internal error|bug in vouch/);
    expect(r.stdout).toBe("");
  }
  // Nothing was written to the damaged file by any of them.
  expect(snapshot(home)).toEqual(before);
}

describe("a damaged ledger is refused for what it is, and never written to", () => {
  test("a page in the middle overwritten with garbage", async () => {
    const { home, file, graph } = await ledgerWithRuns(8);
    const bytes = readFileSync(file);
    const page = Math.floor(bytes.length / 2 / 4096) * 4096;
    for (let i = page; i < page + 4096; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(file, bytes);
    await expectRefusedEverywhere(home, file, graph, /quick check|malformed/);
  }, 60_000);

  test("stored events whose JSON was broken in place", async () => {
    const { home, file, graph } = await ledgerWithRuns(3);
    const bytes = readFileSync(file);
    // A key of every check.finished body (the type is a column of its own since schema 6, ADR 0077;
    // a key packed as a token since schema 7, ADR 0082, is not in the bytes: this one is not packed).
    const needle = Buffer.from('"expect":');
    let copies = 0;
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1), copies++) bytes[at] = 0x01;
    expect(copies).toBeGreaterThan(0);
    writeFileSync(file, bytes);
    await expectRefusedEverywhere(home, file, graph, /event \d+ of run \S+ is not the JSON vouch wrote/);
  }, 60_000);

  test("resume of a passed run whose own events were broken: damaged (exit 3), not 'nothing to resume' (ADR 0094)", async () => {
    const { home, file } = await ledgerWithRuns(1);
    const bytes = readFileSync(file);
    const needle = Buffer.from('"expect":');
    let copies = 0;
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1), copies++) bytes[at] = 0x01;
    expect(copies).toBeGreaterThan(0);
    writeFileSync(file, bytes);
    const before = snapshot(home);
    // The open leaves the resumed run to the read; a refusal before it reads has it checked then.
    const r = await vouch(["resume", "last"], { home, cwd: dir.path });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/is damaged \(event \d+ of run \S+ is not the JSON vouch wrote\)/);
    expect(r.stderr).not.toMatch(/nothing to resume|internal error/);
    expect(snapshot(home)).toEqual(before);
  }, 60_000);
});
