// A check that could not run (its handover files could not be written — a full
// disk — or its command could not start) gathered no evidence: the node is
// error (exit 3), never failed. ERROR is never FAIL (docs/architecture.md §5, ADR 0004).
// Found by the fault suite (test/faults/disk-full.test.ts): before the fix a
// full TMPDIR made the node `failed check_failed` and the run exit 1.
import { expect, test } from "vitest";
import { finishedOf, run } from "./helpers/run-helper.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { SpawnError } from "../../src/engine/errors.ts";

const GRAPH = `
version: 1
name: t
nodes:
  a:
    kind: agent
    prompt: "A"
    success: { checks: [{ name: tests, run: "true" }, { name: lint, run: "true" }] }
`;

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

test("a check that throws (ENOSPC writing its files) makes the node error harness_error, exit 3", async () => {
  const commands = new FakeCommandRunner((spec) => {
    if (spec.name === "tests") throw enospc();
    return { passed: true };
  });
  const r = await run(GRAPH, { commands });
  const a = finishedOf(r.events, "a");
  expect(a).toMatchObject({ status: "error", cause: "harness_error" });
  expect(a.error).toContain("could not run: tests");
  expect(a.error).toContain("ENOSPC");
  // Both checks were still tried (all checks run), and the one that ran is reported.
  expect(commands.checks.map((c) => c.spec.name)).toEqual(["tests", "lint"]);
  expect(r.outcome.exitCode).toBe(3);
});

test("a check that could not start (SpawnError from the port) is error too", async () => {
  const commands = new FakeCommandRunner(() => {
    throw new SpawnError('check "tests" could not start: working directory /nope does not exist');
  });
  const r = await run(GRAPH, { commands });
  expect(finishedOf(r.events, "a")).toMatchObject({ status: "error", cause: "harness_error" });
  expect(r.outcome.exitCode).toBe(3);
});

test("when another check ran and failed, the evidence says no: failed check_failed (failed outranks error)", async () => {
  const commands = new FakeCommandRunner((spec) => {
    if (spec.name === "tests") throw enospc();
    return { passed: false, exit: 1 };
  });
  const r = await run(GRAPH, { commands });
  const a = finishedOf(r.events, "a");
  expect(a).toMatchObject({ status: "failed", cause: "check_failed" });
  expect(r.outcome.exitCode).toBe(1);
});
