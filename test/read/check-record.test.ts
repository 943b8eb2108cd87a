// How readers tell a witness's base run from the check's own (ADR 0044).
import { expect, test } from "vitest";
import { checkLabel, checkWentWrong } from "../../src/read/check-record.ts";
import { qualifierText } from "../../src/read/qualifier.ts";

test("a base run that failed is as witnessed; one that passed went wrong; other checks go wrong when they fail", () => {
  expect([checkWentWrong({ passed: false, tree: "base" }), checkWentWrong({ passed: true, tree: "base" })]).toEqual([false, true]);
  expect([checkWentWrong({ passed: false, tree: "commit" }), checkWentWrong({ passed: true }), checkWentWrong({ passed: false })]).toEqual([
    true,
    false,
    true,
  ]);
  expect([checkLabel({ name: "t", tree: "base" }), checkLabel({ name: "t", tree: "commit" }), checkLabel({ name: "t" })]).toEqual([
    "t (on the base)",
    "t",
    "t",
  ]);
});

test("the qualifier reads verified (fail→pass) when a witnessed check went fail→pass", () => {
  expect(qualifierText({ qualifier: "verified", witnessed: ["t"] })).toBe("verified (fail→pass)");
  expect(qualifierText({ qualifier: "verified", witnessed: [] })).toBe("verified");
  expect(qualifierText({ qualifier: "exit-only" })).toBe("exit-only");
  expect(qualifierText({ qualifier: null, witnessed: ["t"] })).toBeNull();
});
