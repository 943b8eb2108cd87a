// What `vouch resume` refuses, through dist/vouch (docs/architecture.md §8, exit 2): a graph
// file that changed since the run started (unless --force), a run that passed,
// a run another vouch is running, and a run whose graph file is gone.
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { eventually } from "../spawn/helpers.ts";
import { ensureBinary, ledgerEvents, startVouch, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  p = tempProject();
  // b passes once the test has created `ok`; `hold` makes a wait until `release` exists.
  p.write(
    "graph.yaml",
    `version: 1
name: refusals
nodes:
  a: { kind: script, run: 'echo x >> effect-a; if [ -f hold ]; then while [ ! -f release ]; do sleep 0.05; done; fi' }
  b: { kind: script, needs: [a], run: 'test -f ok' }
`,
  );
});
afterEach(() => p.cleanup());

const effectLines = () => readFileSync(join(p.dir, "effect-a"), "utf8").split("\n").filter(Boolean).length;
const runIdOf = (stdout: string) => /run (\S+) started/.exec(stdout)![1]!;

test("an edited graph file: exit 2 naming the file and both digests; --force runs it and keeps what passed", async () => {
  const first = await vouch(p, ["run", "graph.yaml"]);
  expect(first.code).toBe(1);
  const id = runIdOf(first.stdout);
  const digest = (ledgerEvents(p, id)[0] as { graph_digest: string }).graph_digest;
  appendFileSync(join(p.dir, "graph.yaml"), "# edited\n");
  writeFileSync(join(p.dir, "ok"), "");

  const refused = await vouch(p, ["resume", id]);
  expect(refused.code).toBe(2);
  expect(refused.stdout).toBe("");
  expect(refused.stderr).toMatch(
    new RegExp(
      `^vouch: the graph file ${join(p.dir, "graph.yaml")} changed since run ${id} started \\(digest ${digest.slice(0, 16)}… then, [0-9a-f]{16}… now\\)\\n`,
    ),
  );
  expect(refused.stderr).toContain("hint: resume with --force to run the changed graph (what passed is kept), or start a new run\n");
  expect(ledgerEvents(p, id).filter((e) => e.type === "run.started")).toHaveLength(1);

  const forced = await vouch(p, ["resume", id, "--force"]);
  expect(forced.code, forced.stderr).toBe(0);
  expect(effectLines()).toBe(1);
  const sessions = ledgerEvents(p, id).filter((e) => e.type === "run.started") as { graph_digest: string }[];
  expect(sessions.map((s) => s.graph_digest === digest)).toEqual([true, false]);
}, 30_000);

test("a run that passed: exit 2, nothing to resume", async () => {
  writeFileSync(join(p.dir, "ok"), "");
  const first = await vouch(p, ["run", "graph.yaml"]);
  expect(first.code).toBe(0);
  const r = await vouch(p, ["resume", "last"]);
  expect(r).toMatchObject({ code: 2, stdout: "" });
  expect(r.stderr).toBe(
    `vouch: run ${runIdOf(first.stdout)} passed: there is nothing to resume\nhint: start a new run with: vouch run ${join(p.dir, "graph.yaml")}\n`,
  );
}, 30_000);

test("a run another vouch is running: exit 2 naming the holder, and the live run is untouched", async () => {
  writeFileSync(join(p.dir, "hold"), "");
  writeFileSync(join(p.dir, "ok"), "");
  const live = startVouch(p, ["run", "graph.yaml"]);
  try {
    await live.waitFor(/run \S+ started/);
    expect(await eventually(() => existsSync(join(p.dir, "effect-a")), 10_000)).toBe(true);
    const id = runIdOf(live.printed().stdout);
    for (const ref of [id, "last"]) {
      const r = await vouch(p, ["resume", ref]);
      expect(r).toMatchObject({ code: 2, stdout: "" });
      expect(r.stderr).toMatch(
        new RegExp(
          `^vouch: run ${id} is live: vouch process ${live.proc.pid} \\(holding it since [0-9T:.Z-]+\\) holds its lock \\(.+\\.lock\\)\\n`,
        ),
      );
      expect(r.stderr).toContain("hint: wait for that run to finish, or stop it (Ctrl-C in its terminal) and resume it then\n");
    }
    expect((JSON.parse((await vouch(p, ["runs", "--json"])).stdout) as { status: string }[])[0]!.status).toBe("running");
    writeFileSync(join(p.dir, "release"), "");
    const done = await live.done;
    expect(done.code, done.stderr).toBe(0);
    expect(effectLines()).toBe(1);
    expect(ledgerEvents(p, id).filter((e) => e.type === "run.started")).toHaveLength(1);
  } finally {
    writeFileSync(join(p.dir, "release"), "");
    await live.done;
  }
}, 30_000);

test("the run's graph file is gone: exit 2 naming it", async () => {
  await vouch(p, ["run", "graph.yaml"]);
  renameSync(join(p.dir, "graph.yaml"), join(p.dir, "moved.yaml"));
  const r = await vouch(p, ["resume", "last"]);
  expect(r).toMatchObject({ code: 2, stdout: "" });
  expect(r.stderr).toContain(`vouch: cannot read graph file ${join(p.dir, "graph.yaml")}: no such file`);
}, 30_000);
