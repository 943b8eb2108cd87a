// Scripts and checks start off the engine's thread in the real binary (issue 29 item 1, ADR
// 0081): the compiled dist/vouch carries its spawn worker as a second entrypoint, and every
// `sh -c true` of a map is started by a thread that is not vouch's main thread (strace -f: the
// thread that vforked each child). A worker that failed to load would fall back to the main
// thread silently — this test is what catches that. Then a map with a capped script and a
// check, through the same path: verdicts, outputs and the timeout as on the main thread.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanEnv, ensureBinary, parseNdjson, ROOT, tempDir, vouch } from "./helpers.ts";

const hasStrace = Bun.spawnSync(["sh", "-c", "command -v strace"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const dir = tempDir("spawn-threads");
afterAll(() => dir.cleanup());
beforeAll(() => void ensureBinary(), 300_000);

/** For each `/bin/sh` the traced run started: the id of the thread that vforked it. */
function spawningThreads(log: string): { main: number; byThread: Map<number, number> } {
  const lines = readFileSync(log, "utf8").split("\n");
  const main = Number(lines[0]!.split(/\s+/)[0]);
  const parentOf = new Map<number, number>();
  for (const l of lines) {
    const m = /^(\d+)\s+.*\bvfork\b.*=\s+(\d+)$/.exec(l);
    if (m) parentOf.set(Number(m[2]), Number(m[1]));
  }
  const byThread = new Map<number, number>();
  for (const l of lines) {
    const m = /^(\d+)\s+execve\("\/bin\/sh", \["\/bin\/sh", "-c", "true"\]/.exec(l);
    if (!m) continue;
    const tid = parentOf.get(Number(m[1])) ?? -1;
    byThread.set(tid, (byThread.get(tid) ?? 0) + 1);
  }
  return { main, byThread };
}

describe.skipIf(!hasStrace)("a map of `true` scripts through dist/vouch (strace)", () => {
  test("without VOUCH_SPAWN_THREADS=on (the default) every `sh` starts on the main thread; a wrong value is refused", () => {
    const items = join(dir.path, "items-off.txt");
    writeFileSync(items, `${Array.from({ length: 10 }, (_, i) => `item-${i}`).join("\n")}\n`);
    const log = join(dir.path, "trace-off.txt");
    const graph = join(ROOT, "bench", "graphs", "overhead.yaml");
    const run = (env: Record<string, string>, trace: boolean) =>
      Bun.spawnSync(
        [
          ...(trace ? ["strace", "-f", "-qq", "-o", log, "-e", "trace=vfork,execve"] : []),
          BINARY,
          "run",
          graph,
          "--json",
          "-i",
          `items=@${items}`,
        ],
        {
          cwd: dir.path,
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
          env: cleanEnv({ home: join(dir.path, "home-off"), env }),
        },
      );
    expect(run({}, true).exitCode).toBe(0);
    const { main, byThread } = spawningThreads(log);
    expect(byThread.get(main)).toBe(10);
    expect(byThread.size).toBe(1);
    const bad = run({ VOUCH_SPAWN_THREADS: "yes" }, false);
    expect([bad.exitCode, bad.stderr.toString()]).toEqual([
      2,
      expect.stringContaining('VOUCH_SPAWN_THREADS="yes": it takes "on" or "off"'),
    ]);
  }, 120_000);

  test("all 40 start on spawn workers, none on the main thread, and the run passes", () => {
    const items = join(dir.path, "items.txt");
    writeFileSync(items, `${Array.from({ length: 40 }, (_, i) => `item-${i}`).join("\n")}\n`);
    const log = join(dir.path, "trace.txt");
    const graph = join(ROOT, "bench", "graphs", "overhead.yaml");
    const r = Bun.spawnSync(
      ["strace", "-f", "-qq", "-o", log, "-e", "trace=vfork,execve", BINARY, "run", graph, "--json", "-i", `items=@${items}`],
      {
        cwd: dir.path,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        env: cleanEnv({ home: join(dir.path, "home"), env: { VOUCH_SPAWN_THREADS: "on" } }),
      },
    );
    expect(r.exitCode).toBe(0);
    const finished = parseNdjson(r.stdout.toString()).filter((e) => e.type === "node.finished");
    expect(finished.length).toBeGreaterThanOrEqual(40);
    const { main, byThread } = spawningThreads(log);
    expect([...byThread.values()].reduce((a, b) => a + b, 0)).toBe(40);
    expect(byThread.has(main)).toBe(false);
    expect(byThread.has(-1)).toBe(false); // every child's spawning thread was found
  }, 120_000);
});

describe("scripts and checks on the spawn workers", () => {
  test("a map's outputs and checks are judged, and a capped script is stopped at its timeout", async () => {
    const graph = join(dir.path, "capped.yaml");
    writeFileSync(
      graph,
      [
        "version: 1",
        "name: capped",
        "inputs:",
        "  items: { description: lines, required: true }",
        "nodes:",
        "  each:",
        "    kind: map",
        "    over: inputs.items",
        "    as: item",
        "    branch:",
        "      work:",
        "        kind: script",
        `        run: 'printf "got %s" "$(cat "$VOUCH_ITEM_FILE")"'`,
        "        success:",
        "          checks:",
        "            - { name: says-got, run: 'echo ok', expect: { output_matches: ok } }",
        "  slow:",
        "    kind: script",
        '    run: "sleep 30"',
        "    timeout: 300ms",
        "",
      ].join("\n"),
    );
    const r = await vouch(["run", graph, "--json", "-i", "items=a\nb\nc"], {
      home: join(dir.path, "home2"),
      cwd: dir.path,
      env: { VOUCH_SPAWN_THREADS: "on" },
    });
    // A script past its timeout is an error (no verdict), as on the main thread: exit 3.
    expect(r.code).toBe(3);
    const events = parseNdjson(r.stdout);
    const finished = events.filter((e) => e.type === "node.finished") as unknown as {
      node: string;
      status: string;
      cause: string | null;
    }[];
    expect(finished.filter((e) => e.node === "slow").map((e) => [e.status, e.cause])).toEqual([["error", "timeout"]]);
    expect(finished.filter((e) => e.status === "passed").length).toBe(4); // three branches and the map
    const tails = finished.filter((e) => e.node === "work").map((e) => (e as unknown as { result_tail: string }).result_tail);
    expect(tails.sort()).toEqual(['got "a"', 'got "b"', 'got "c"']); // the item file holds JSON
  }, 120_000);
});
