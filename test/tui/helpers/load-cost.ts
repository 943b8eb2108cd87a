// Measures what loading each output costs inside a compiled binary built like
// build.ts (bytecode, minified, ESM, react-devtools-core stubbed).
// Run: node_modules/.bin/bun test/tui/helpers/load-cost.ts   (figures quoted in ADR 0007)
import type { BunPlugin } from "bun";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const src = join(import.meta.dirname, "..", "..", "..", "src", "tui");
const dir = mkdtempSync(join(tmpdir(), "vouch-load-cost-"));
const entry = join(dir, "entry.ts");
writeFileSync(
  entry,
  `const t = performance.now();
const which = process.argv[2];
if (which === "plain") await import(${JSON.stringify(join(src, "plain-output.ts"))});
if (which === "json") await import(${JSON.stringify(join(src, "ndjson-output.ts"))});
if (which === "tui") await import(${JSON.stringify(join(src, "app.tsx"))});
console.log((performance.now() - t).toFixed(1));
`,
);
const stub: BunPlugin = {
  name: "stub-react-devtools-core",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "stub" }));
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};
const outfile = join(dir, "probe");
const built = await Bun.build({
  entrypoints: [entry],
  compile: { outfile },
  bytecode: true,
  format: "esm",
  minify: true,
  define: { "process.env.NODE_ENV": '"production"' },
  plugins: [stub],
});
if (!built.success) throw new Error(built.logs.join("\n"));
for (const which of ["json", "plain", "tui"]) {
  const ms = Array.from({ length: 5 }, () => Number(Bun.spawnSync([outfile, which]).stdout.toString().trim()));
  console.log(`${which}: load ${Math.min(...ms)}–${Math.max(...ms)} ms over 5 runs`);
}
rmSync(dir, { recursive: true, force: true });
