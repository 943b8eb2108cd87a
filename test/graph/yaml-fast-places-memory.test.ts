// Review of ADR 0091: the pass's memory is bounded by the file, not by depth × key length ×
// entries. A chain of 43 keys of 990 characters, then N short leaves: every leaf's map key
// (pathKey) repeats the whole chain. A count of stored characters, no timing.
import { expect, test } from "vitest";
import { fastYamlValue } from "../../src/engine/graph/yaml-fast.ts";
import { fastPlaces } from "../../src/engine/graph/yaml-fast-places.ts";

function deepLongKeys(leaves: number): string {
  const out = ["version: 1", "name: g", "nodes:", "  a:", "    kind: end", "    status: success", "    bogus:"];
  let ind = 6;
  for (let d = 0; d < 43; d++) {
    out.push(`${" ".repeat(ind)}k${String(d).padStart(3, "0")}${"x".repeat(986)}:`);
    ind += 2;
  }
  for (let i = 0; i < leaves; i++) out.push(`${" ".repeat(ind)}x${i}: 1`);
  return `${out.join("\n")}\n`;
}

test("the places of a deep file with long keys take memory linear in the file", () => {
  const text = deepLongKeys(2000);
  expect(fastYamlValue(text)).not.toBeNull(); // the fast path takes it
  const places = fastPlaces(text);
  // null (leave it to the library) is a fine answer too; a kept answer must be small.
  if (places === null) return;
  let chars = 0;
  for (const k of places.keys()) chars += k.length;
  expect(chars).toBeLessThan(4 * text.length);
});

test("a long flow key over many items does not make the places quadratic", () => {
  // Flow keys have no length bound in the subset: n items under an n-character key stored
  // n keys of n characters (n² for a file of 3n bytes).
  const n = 5000;
  const items = Array(n).fill("1").join(",");
  const text = `version: 1\nname: g\nbogus: {k${"x".repeat(n)}: [${items}]}\nnodes: {a: {kind: end, status: success}}\n`;
  expect(fastYamlValue(text)).not.toBeNull();
  const places = fastPlaces(text);
  if (places === null) return;
  let chars = 0;
  for (const k of places.keys()) chars += k.length;
  expect(chars).toBeLessThan(4 * text.length);
});
