// The planned-graph rules (ADR 0025) meet features built beside them: a merge node
// (ADR 0021) has a cwd and env: of its own, and `executor:` (ADR 0026) hands every
// branch to whatever answers at a Redis URL. A graph written by a model may not use
// either to reach outside the run's folder, take credentials, or have its verdicts
// decided by a process vouch did not start.
import { expect, test } from "vitest";
import { lines } from "./helpers.ts";

const merge = (fields: string, head = "") =>
  `version: 1\nname: p\norigin: planned\n${head}nodes:\n  a: { kind: agent, prompt: x, workspace: { mode: worktree } }\n  m:\n    kind: merge\n    needs: [a]\n    from: [a]\n${fields}`;

test("a merge node's cwd outside the run's folder is refused in a planned graph", () => {
  for (const cwd of ["/", "..", "~/other", '"{{ inputs.d }}"']) {
    const got = lines(merge(`    cwd: ${cwd}\n`, "inputs:\n  d: { default: / }\n")).filter((l) => l.includes("planned"));
    expect(got.length, cwd).toBe(1);
    expect(got[0], cwd).toMatch(/^12:10 cwd .* is refused in a planned graph \(origin: planned\)/);
  }
});

test("a merge node's env: is refused in a planned graph, as a script's is", () => {
  expect(lines(merge("    env: [AWS_SECRET_ACCESS_KEY]\n"))).toEqual(["10:5 env: is refused in a planned graph (origin: planned)"]);
});

test("executor: is refused in a planned graph: the workers at that URL would decide its branches' verdicts", () => {
  const g =
    "version: 1\nname: p\norigin: planned\nexecutor: redis://203.0.113.9:6379\ninputs:\n  xs: { default: [1] }\nnodes:\n  m:\n    kind: map\n    over: inputs.xs\n    branch:\n      b: { kind: agent, prompt: x, workspace: { mode: worktree } }\n";
  expect(lines(g)).toEqual([
    "4:11 executor is refused in a planned graph (origin: planned): the processes at that URL would run its branches and report their verdicts",
  ]);
});

test("the same fields in a user's graph are allowed", () => {
  const g = merge("    cwd: .\n    env: [HOME]\n").replace("origin: planned", "origin: user");
  expect(lines(g).filter((l) => l.includes("planned"))).toEqual([]);
  expect(lines("version: 1\nname: p\nexecutor: redis://127.0.0.1:6379\nnodes:\n  a: { kind: agent, prompt: x }\n")).toEqual([]);
});
