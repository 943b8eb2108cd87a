// `vouch resume` hands the resumed session what is left of the run budget the
// first session set; a run that spent it all is refused, never resumed with a
// zero or negative budget (ResumeRefusedError, exit 2).
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { ResumeRefusedError } from "../../src/engine/errors.ts";
import { budgetLeft } from "../../src/cli/resume-command.ts";

describe("resume: the budget left", () => {
  test("no run budget: none is passed on", () => {
    expect(budgetLeft(null, 12.5, "r1")).toBeUndefined();
  });

  test("what earlier sessions spent counts against the budget", () => {
    expect(budgetLeft(1, 0.25, "r1")).toBe(0.75);
  });

  test("spent all (or more, a sitting overran it): refused with exit 2, naming the run and the figures", () => {
    for (const spent of [0.08, 0.09]) {
      let err: unknown;
      try {
        budgetLeft(0.08, spent, "r-spent");
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ResumeRefusedError);
      expect((err as ResumeRefusedError).exitCode).toBe(2);
      expect((err as Error).message).toContain(`run r-spent has spent $${spent.toFixed(4)} of its $0.08 budget`);
    }
  });

  test("whatever the figures, a budget passed on is positive", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), (budget, spent) => {
        try {
          const left = budgetLeft(budget, spent, "r");
          return left !== undefined && left > 0;
        } catch (e) {
          return e instanceof ResumeRefusedError && budget - spent <= 0;
        }
      }),
    );
  });
});
