// `vouch show --json` of a finished run holds every check's tail and every cap
// overrun that the run's own `--json` events carried (issue 6), through
// dist/vouch: one real run (scripts, checks, replayed agents, a map, a retry,
// a run-wide budget crossed), then show of the same run.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { ROOT } from "../graph/binary.ts";
import { ensureBinary, ndjson, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  p = tempProject();
  // A recorded Claude sitting of 2 turns costing $0.0311, for every agent node.
  for (const n of ["review", "verify.0", "verify.1"])
    cpSync(join(ROOT, "graphs/parallel-review.replay/review_file.0.jsonl"), join(p.dir, "evidence.replay", `${n}.jsonl`));
  p.write(
    "evidence.yaml",
    `version: 1
name: evidence
defaults: { harness: replay }
caps: { budget_usd: 0.08 }
concurrency: 1
inputs:
  items: { default: [1, 2] }
checks:
  fails: { run: 'echo "out line 1"; echo "out line 2"; echo "err line" >&2; exit 3' }
  passes: { run: 'echo fine' }
nodes:
  build: { kind: script, run: 'echo built', success: { checks: [fails, passes] }, retry: { max: 1, on: [check_failed] } }
  review: { kind: agent, prompt: review it, caps: { turns: 1, budget_usd: 0.001 }, success: { checks: [passes] } }
  each:
    kind: map
    needs: [review]
    over: inputs.items
    branch:
      verify: { kind: agent, prompt: "verify {{ item }}", caps: { turns: 1 }, success: { checks: [fails] } }
`,
  );
});
afterEach(() => p.cleanup());

type Rec = Record<string, unknown> & { seq: number };
const strip = ({ v: _v, type: _t, run: _r, ...rest }: VouchEvent): Rec => rest as Rec;
const bySeq = (a: Rec, b: Rec) => a.seq - b.seq;

test("every check.finished (with its tails) and every cap.overrun of the live events is in show --json", async () => {
  const run = await vouch(p, ["run", "evidence.yaml", "--json"]);
  const live = ndjson(run.stdout);
  const finished = live.at(-1) as EventOf<"run.finished">;
  expect(finished).toMatchObject({ type: "run.finished", exit_code: run.code });
  const liveChecks = live.filter((e) => e.type === "check.finished").map(strip);
  const liveOverruns = live.filter((e) => e.type === "cap.overrun").map(strip);
  // The run is rich enough to mean something: failed checks with tails on a retried
  // script and in branches, node overruns of two kinds, and a run-wide one.
  expect(
    liveChecks.filter((c) => c.passed === false && c.stdout_tail === "out line 1\nout line 2\n" && c.stderr_tail === "err line\n").length,
  ).toBeGreaterThanOrEqual(3);
  expect(liveChecks.some((c) => c.node === "build" && c.attempt === 2)).toBe(true);
  expect(new Set(liveOverruns.map((o) => `${o.scope}:${o.cap}`))).toEqual(new Set(["node:turns", "node:budget_usd", "run:budget_usd"]));

  const shown = await vouch(p, ["show", finished.run, "--json"]);
  expect(shown.code).toBe(0);
  const s = JSON.parse(shown.stdout);
  type Attempt = { checks: Rec[]; overruns: Rec[] };
  const nodes: { attempts: Attempt[] }[] = [...s.nodes, ...s.branches.flatMap((b: { nodes: unknown[] }) => b.nodes)];
  const checks = nodes.flatMap((n) => n.attempts.flatMap((a) => a.checks));
  const overruns = [...s.overruns, ...nodes.flatMap((n) => n.attempts.flatMap((a) => a.overruns))];
  expect(checks.sort(bySeq)).toEqual(liveChecks);
  expect(overruns.sort(bySeq)).toEqual(liveOverruns);
  expect(s.run).toMatchObject({ status: finished.status, exit_code: finished.exit_code, cost_usd: finished.cost_usd });
}, 30_000);
