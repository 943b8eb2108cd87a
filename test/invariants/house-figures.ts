// The house in figures (docs/architecture.md "Changing things"): import cycles in src/,
// and the largest file and function in the size-limited folders, as the invariant
// tests' own parser counts them (ts-facts.ts). A measurement, not a test:
//   node_modules/.bin/bun test/invariants/house-figures.ts [ROOT]
// ROOT defaults to this checkout; another checkout's src/ is read with this parser.
import { resolve } from "node:path";
import { cycles } from "./cycle-rules.ts";
import { SIZE_LIMITED } from "./size-rules.ts";
import { ROOT } from "./source-scan.ts";
import { scanProject } from "./ts-facts.ts";

const root = resolve(process.argv[2] ?? ROOT);
const facts = await scanProject(root, ["src"]);
const valueCycles = cycles(facts, true);
const allCycles = cycles(facts, false);
const largest = (n: number[]) => Math.max(0, ...n);
console.log(`files read: ${facts.size} (src/)`);
console.log(
  `value import cycles: ${valueCycles.length} ${valueCycles.length ? `(${valueCycles.map((c) => c.length).join(", ")} files)` : ""}`,
);
console.log(`cycles with type imports counted: ${allCycles.length}; the largest ${largest(allCycles.map((c) => c.length))} files`);
for (const dir of SIZE_LIMITED) {
  const inDir = [...facts].filter(([f]) => f.startsWith(dir));
  const file = inDir.sort(([, a], [, b]) => b.lines - a.lines)[0];
  const fns = inDir.flatMap(([f, x]) => x.functions.map((fn) => ({ f, ...fn })));
  const fn = fns.sort((a, b) => b.lines - a.lines)[0];
  console.log(
    `${dir}: ${inDir.length} files; largest file ${file ? `${file[0]} (${file[1].lines} lines)` : "-"}; ` +
      `largest function ${fn ? `${fn.f}:${fn.line} ${fn.name} (${fn.lines} lines)` : "-"}`,
  );
}
