// What changed in the user's repository (ADR 0044): each record by name, refs added, moved, deleted.
import { expect, test } from "vitest";
import { repoChanges } from "../../src/engine/workspace/repo-watch.ts";

test("each changed record and ref is named once; equal fingerprints name nothing; a long list is bounded", () => {
  const a = { files: { config: "1", hooks: "1", index: "1" }, refs: { "refs/heads/main": "a", "refs/tags/v1": "t" } };
  expect(repoChanges(a, a)).toEqual([]);
  const b = { files: { config: "2", hooks: "1", index: "1" }, refs: { "refs/heads/main": "b", "refs/replace/x": "y" } };
  expect(repoChanges(a, b)).toEqual(["config", "refs/heads/main moved", "refs/tags/v1 deleted", "refs/replace/x added"]);
  const many = { files: {}, refs: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`refs/tags/t${i}`, "x"])) };
  const out = repoChanges({ files: {}, refs: {} }, many);
  expect(out).toHaveLength(21);
  expect(out.at(-1)).toBe("and 10 more");
  // A ref named like an object's own property is a ref like any other.
  expect(repoChanges({ files: {}, refs: {} }, { files: {}, refs: JSON.parse('{"__proto__":"x"}') })).toEqual(["__proto__ added"]);
});
