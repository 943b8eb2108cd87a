// Whose branch a merge's `into` may write (issue 27 item 1): only one this run's
// merge node made in an earlier try; a planned graph's only under vouch/<run>/.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { intoRefusal, mergeMessage, plannedIntoProblem } from "../../src/engine/workspace/into.ts";
import { lines } from "../graph/helpers.ts";

const facts = (into: string, tipSubject: string | null, planned = false) => ({ into, runId: "r1", node: "j", planned, tipSubject });

describe("intoRefusal", () => {
  test("a new branch is written; an existing one only when its tip is this merge node's own merge commit", () => {
    expect(intoRefusal(facts("integration", null))).toBeNull();
    expect(intoRefusal(facts("integration", mergeMessage("r1", "j", "vouch/r1/a")))).toBeNull();
    for (const other of [
      "the user's work",
      mergeMessage("r2", "j", "x"),
      mergeMessage("r1", "k", "x"),
      "vouch: run r1, node j, attempt 1",
    ]) {
      expect(intoRefusal(facts("main", other)), other).toBe(
        'into "main" names a branch this run did not make: vouch never renames or moves a branch it did not make',
      );
    }
  });

  test("a node whose id another extends is not taken for it (j is not j2)", () => {
    expect(intoRefusal({ ...facts("x", mergeMessage("r1", "j2", "a")), node: "j" })).not.toBeNull();
  });

  test("planned: only under vouch/<run>/, whatever exists", () => {
    expect(intoRefusal(facts("vouch/r1/merged", null, true))).toBeNull();
    expect(intoRefusal(facts("main", null, true))).toContain("is outside vouch/r1/");
    expect(intoRefusal(facts("vouch/r2/merged", null, true))).toContain("is outside vouch/r1/");
    expect(intoRefusal(facts("vouch/r1", null, true))).toContain("is outside vouch/r1/");
  });

  test("property: a branch whose tip is not this merge's commit is never written", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (subject, into) => {
        const mine = subject.startsWith("vouch: run r1, node j, merge ");
        expect(intoRefusal(facts(into, subject)) === null).toBe(mine);
      }),
    );
  });
});

describe("a planned graph's into, at load", () => {
  const planned = (into: string) =>
    `version: 1\nname: p\norigin: planned\nnodes:\n  a: { kind: agent, prompt: a, workspace: { mode: worktree } }\n  j: { kind: merge, needs: [a], from: [a], into: ${into} }\n`;
  test("must start with vouch/{{ run.id }}/", () => {
    expect(lines(planned('"vouch/{{ run.id }}/merged"'))).toEqual([]);
    expect(lines(planned('"vouch/{{run.id}}/merged"'))).toEqual([]);
    for (const bad of ["main", '"vouch/{{ run.id }}"', '"vouch/x/{{ run.id }}/m"', '"{{ inputs.b }}"', "vouch/r/merged"]) {
      const got = lines(planned(bad).replace("nodes:", "inputs:\n  b: { default: main }\nnodes:"));
      expect(got.length, bad).toBe(1);
      expect(got[0], bad).toMatch(
        /^8:\d+ into .* is refused in a planned graph \(origin: planned\): it must start with "vouch\/\{\{ run\.id \}\}\/"/,
      );
    }
    expect(plannedIntoProblem("vouch/{{ run.id }}/{{ nodes.a.output }}")).toBeNull(); // the rendered name is checked again at run time
  });
});
