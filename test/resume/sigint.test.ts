// Ctrl-C (SIGINT) mid-run through dist/vouch in plain mode (docs/architecture.md §10): the
// children die, the run is recorded interrupted, exit 130, and `vouch resume`
// finishes it without running again what had passed. A second Ctrl-C exits
// at once, even while a child ignores SIGTERM. SIGHUP and SIGQUIT stop it the same way.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { eventually, groupAlive, killQuietly } from "../spawn/helpers.ts";
import { ensureBinary, ledgerEvents, startVouch, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
let leftovers: number[] = [];
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => (p = tempProject()));
afterEach(() => {
  killQuietly(leftovers.map((pid) => -pid));
  leftovers = [];
  p.cleanup();
});

// A step records its pid (its group's leader) and one side-effect line, then
// works a moment; slow1 and slow2 work 30 s unless the test created `release`.
// With `stubborn` as $1 a step ignores SIGTERM, and so does its sleep.
const STEP = `#!/bin/sh
[ "$1" = stubborn ] && trap '' TERM
echo $$ > "pid-$VOUCH_NODE"
echo x >> "effect-$VOUCH_NODE"
case "$VOUCH_NODE" in slow*) [ -f release ] || exec sleep 30 ;; esac
sleep 0.05
`;
const GRAPH = `version: 1
name: interrupt-me
nodes:
  fast: { kind: script, argv: [sh, ./step.sh], timeout: 1m }
  slow1: { kind: script, needs: [fast], argv: [sh, ./step.sh], timeout: 1m }
  slow2: { kind: script, needs: [fast], argv: [sh, ./step.sh, "$STUBBORN"], timeout: 1m }
  after: { kind: script, needs: [slow1, slow2], argv: [sh, ./step.sh], timeout: 1m }
`;

const lines = (node: string) =>
  existsSync(join(p.dir, `effect-${node}`))
    ? readFileSync(join(p.dir, `effect-${node}`), "utf8")
        .split("\n")
        .filter(Boolean).length
    : 0;
const pidOf = (node: string) => Number(readFileSync(join(p.dir, `pid-${node}`), "utf8"));
const bothSlowStarted = () => eventually(() => existsSync(join(p.dir, "effect-slow1")) && existsSync(join(p.dir, "effect-slow2")), 15_000);

function setUp(stubborn: boolean) {
  p.write("step.sh", STEP);
  p.write("graph.yaml", GRAPH.replace('"$STUBBORN"', stubborn ? "stubborn" : "gentle"));
}

async function runs(): Promise<{ id: string; status: string; exit_code: number | null }[]> {
  const r = await vouch(p, ["runs", "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

test("SIGINT mid-run: children dead, exit 130, recorded interrupted; resume finishes it without re-running what passed", async () => {
  setUp(false);
  const s = startVouch(p, ["run", "graph.yaml"]);
  expect(await bothSlowStarted()).toBe(true);
  leftovers = [pidOf("slow1"), pidOf("slow2")];
  s.proc.kill("SIGINT");
  const r = await s.done;
  expect(r.code).toBe(130);
  expect(r.stderr).toContain("vouch: cancelling the run (children are stopped; Ctrl-C again to stop at once)");
  // vouch waits for its process groups before it exits: nothing of theirs is left.
  expect(leftovers.map((pid) => groupAlive(pid))).toEqual([false, false]);

  const [run] = await runs();
  expect(run).toMatchObject({ status: "interrupted", exit_code: 130 });
  const shown = await vouch(p, ["show", run!.id]);
  expect(shown.stdout).toContain("\nstatus   interrupted, exit 130\n");
  expect(shown.stdout).toMatch(/\nfast +passed \(exit-only\)/);
  expect(shown.stdout).toMatch(/\nslow1 +cancelled/);
  expect(shown.stdout).toMatch(/\nafter +cancelled/);

  writeFileSync(join(p.dir, "release"), "");
  const resumed = await vouch(p, ["resume", run!.id]);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect((await runs())[0]).toMatchObject({ id: run!.id, status: "passed", exit_code: 0 });
  // fast had passed: not run again. The cancelled ones ran twice, `after` once.
  expect(["fast", "slow1", "slow2", "after"].map(lines)).toEqual([1, 2, 2, 1]);
  const started = ledgerEvents(p, run!.id)
    .filter((e) => e.type === "node.started")
    .map((e) => (e.type === "node.started" ? e.node : ""));
  expect(started).toEqual(expect.arrayContaining(["fast", "slow1", "slow2", "slow1", "slow2", "after"]));
  expect(started.filter((n) => n === "fast")).toHaveLength(1);
}, 60_000);

test("a second SIGINT exits 130 at once: the child that ignores SIGTERM is killed, the run stays resumable", async () => {
  setUp(true);
  const s = startVouch(p, ["run", "graph.yaml"]);
  expect(await bothSlowStarted()).toBe(true);
  leftovers = [pidOf("slow1"), pidOf("slow2")];
  s.proc.kill("SIGINT");
  await s.waitFor("cancelling the run", "stderr");
  // slow2 ignores SIGTERM: the graceful stop would wait out its grace period (2 s)
  // and then record run.finished. The second Ctrl-C does not wait for it.
  s.proc.kill("SIGINT");
  const r = await s.done;
  expect(r.code).toBe(130);
  expect(leftovers.map((pid) => groupAlive(pid))).toEqual([false, false]);
  const [run] = await runs();
  const events = ledgerEvents(p, run!.id);
  // Exited before the graceful path could end the run: no run.finished was written,
  // so the run reads as abandoned (ADR 0009) — and resumes like any abandoned run.
  expect(events.some((e) => e.type === "run.finished")).toBe(false);
  expect(run).toMatchObject({ status: "abandoned", exit_code: null });
  writeFileSync(join(p.dir, "release"), "");
  const resumed = await vouch(p, ["resume", "last"]);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(lines("fast")).toBe(1);
}, 60_000);

test("SIGHUP (the terminal closed, ssh dropped, tmux killed) stops the children like Ctrl-C: none outlives vouch", async () => {
  // Children lead their own process groups, so the kernel's hang-up reaches only
  // vouch: unless vouch stops them, they run on with nobody to see them.
  setUp(false);
  const s = startVouch(p, ["run", "graph.yaml"]);
  expect(await bothSlowStarted()).toBe(true);
  leftovers = [pidOf("slow1"), pidOf("slow2")];
  s.proc.kill("SIGHUP");
  await s.done;
  expect(leftovers.map((pid) => groupAlive(pid))).toEqual([false, false]);
  const [run] = await runs();
  expect(run).toMatchObject({ status: "interrupted" });
}, 60_000);

test("SIGQUIT (Ctrl-\\ in a plain terminal) stops the run like SIGTERM: children dead, exit 130, recorded interrupted", async () => {
  // SIGQUIT's default action ends vouch at once (exit 131, a core dump) and leaves
  // its children, who lead their own groups, running with nobody to stop them.
  setUp(false);
  const s = startVouch(p, ["run", "graph.yaml"]);
  expect(await bothSlowStarted()).toBe(true);
  leftovers = [pidOf("slow1"), pidOf("slow2")];
  s.proc.kill("SIGQUIT");
  const r = await s.done;
  expect([r.code, r.signal]).toEqual([130, null]);
  // The notice names the signal that came: it was not a Ctrl-C.
  expect(r.stderr).toContain("vouch: SIGQUIT: cancelling the run (children are stopped; a second signal stops at once)");
  expect(r.stderr).not.toContain("Ctrl-C again");
  expect(leftovers.map((pid) => groupAlive(pid))).toEqual([false, false]);
  const [run] = await runs();
  expect(run).toMatchObject({ status: "interrupted", exit_code: 130 });
}, 60_000);

test("a second SIGINT leaves no handover folder (the run state as files) behind in TMPDIR", async () => {
  setUp(true);
  const tmp = join(p.dir, "tmp");
  mkdirSync(tmp, { recursive: true });
  const s = startVouch(p, ["run", "graph.yaml"], { TMPDIR: tmp });
  expect(await bothSlowStarted()).toBe(true);
  leftovers = [pidOf("slow1"), pidOf("slow2")];
  expect(readdirSync(tmp).length).toBeGreaterThan(0); // the live scripts' state files
  s.proc.kill("SIGINT");
  await s.waitFor("cancelling the run", "stderr");
  s.proc.kill("SIGINT");
  expect((await s.done).code).toBe(130);
  expect(readdirSync(tmp)).toEqual([]);
}, 60_000);
