// Placing the problems of a file the fast path read builds no yaml library document
// (ADR 0091): N unknown needs cost Bun's parse and one line pass, not the library's
// full parse too. A count of the library's readings, not a timing.
import { afterAll, expect, test } from "vitest";
import { Composer } from "yaml";
import { loadGraph } from "../../src/engine/graph/loader.ts";

// The library's reading composes a document: a count on the composer's prototype sees
// every one, however the module was loaded.
const parses = { count: 0 };
const compose = Composer.prototype.compose;
Composer.prototype.compose = function (this: Composer, ...args: Parameters<typeof compose>) {
  parses.count++;
  return compose.apply(this, args);
} as typeof compose;
afterAll(() => {
  Composer.prototype.compose = compose;
});

function unknownNeeds(n: number): string {
  const lines = ["version: 1", "name: big", "nodes:"];
  for (let i = 0; i < n; i++) lines.push(`  n${i}: { kind: end, status: success, needs: [x${i}] }`);
  return `${lines.join("\n")}\n`;
}

test("N unknown needs are placed without parsing the file with the yaml library", () => {
  parses.count = 0;
  const r = loadGraph("g.yaml", unknownNeeds(500));
  expect(r.problems).toHaveLength(500);
  expect(r.problems[0]).toMatchObject({ line: 4, col: 45 });
  expect(parses.count).toBe(0);
});

test("a file outside the subset still gets the library's reading (the count sees it)", () => {
  parses.count = 0;
  loadGraph("g.yaml", `${unknownNeeds(3)}x: &a 1\n`);
  expect(parses.count).toBeGreaterThan(0);
});
