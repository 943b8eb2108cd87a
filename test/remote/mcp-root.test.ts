// The MCP server's root (ADR 0065): whatever path a client names — `..`, absolute,
// through symbolic links that lead out (or back in), empty, NUL — it resolves to a
// real path inside the root or is refused. fast-check builds the paths.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { Root } from "../../src/cli/mcp/root.ts";
import { UsageError } from "../../src/engine/errors.ts";

let base: string;
let root: Root;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "vouch-mcp-root-")));
  const r = join(base, "root");
  mkdirSync(join(r, "a", "b"), { recursive: true });
  mkdirSync(join(base, "outside"), { recursive: true });
  writeFileSync(join(r, "g.yaml"), "x");
  writeFileSync(join(r, "a", "b", "g.yaml"), "x");
  writeFileSync(join(base, "outside", "g.yaml"), "x");
  writeFileSync(join(base, "root-sibling.yaml"), "x");
  symlinkSync(join(base, "outside"), join(r, "out")); // a link out
  symlinkSync(join(r, "a"), join(r, "in")); // a link that stays in
  symlinkSync("../../outside/g.yaml", join(r, "a", "sneaky.yaml"));
  root = new Root(r);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const inside = (p: string) => p === root.real || p.startsWith(root.real + sep);

describe("Root.resolve", () => {
  test("the examples: inside is allowed (a link that stays in too), everything else refused with the reason", () => {
    expect(root.resolve("g.yaml")).toBe(join(root.real, "g.yaml"));
    expect(root.resolve("in/b/g.yaml")).toBe(join(root.real, "a", "b", "g.yaml"));
    expect(root.resolve(join(root.real, "a/../g.yaml"))).toBe(join(root.real, "g.yaml"));
    for (const [p, why] of [
      ["../outside/g.yaml", "outside the server's root"],
      ["../root-sibling.yaml", "outside the server's root"],
      [join(base, "outside", "g.yaml"), "outside the server's root"],
      ["out/g.yaml", "through a symbolic link"],
      ["a/sneaky.yaml", "through a symbolic link"],
      ["", "empty"],
      ["g.yaml\u0000.png", "not a path"],
      ["nope.yaml", "no such file"],
    ] as const)
      expect(() => root.resolve(p), p).toThrow(why);
  });

  test("property: any path built of .., ., names, links and slashes resolves inside the root or is refused", () => {
    const segment = fc.constantFrom("..", ".", "a", "b", "g.yaml", "out", "in", "sneaky.yaml", "outside", "root", "", "x");
    const path = fc
      .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 8 }))
      .map(([abs, segs]) => (abs ? base + "/" : "") + segs.join("/"));
    fc.assert(
      fc.property(path, (p) => {
        try {
          expect(inside(root.resolve(p))).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
