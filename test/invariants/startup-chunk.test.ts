// What `vouch --version` loads: the binary is built with code splitting
// (build.ts BUNDLE_OPTIONS), so the entry chunk and the chunks it imports
// statically are small and hold none of zod, yaml, ink/React or bun:sqlite —
// those are loaded by the command that needs them. Without splitting the
// whole 1.1 MB bundle was loaded to print a version (bench/results.md has
// the start-up figures).
import { afterAll, expect, test } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { BUNDLE_OPTIONS } from "../../build.ts";

const out = mkdtempSync(join(tmpdir(), "vouch-chunks-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Markers that survive minification: zod, yaml, React, the ledger, Graphviz. */
const HEAVY: [string, string][] = [
  ["zod", "invalid_type"],
  ["yaml", "YAMLParseError"],
  ["react", "react.element"],
  ["bun:sqlite", "bun:sqlite"],
  // Graphviz compiled to WebAssembly (about 1 MB), for `vouch report` only.
  ["@hpcc-js/wasm-graphviz", "gradientangle"],
  // OpenTelemetry, only when a run exports traces (ADR 0059).
  ["@opentelemetry/exporter-trace-otlp-http", "OTel-OTLP-Exporter-JavaScript"],
];

test("the entry chunk and its static imports are small and load no heavy library", async () => {
  const built = await Bun.build({ ...BUNDLE_OPTIONS, bytecode: false, target: "bun", outdir: out });
  expect(built.success).toBe(true);
  const entry = built.outputs.find((o) => o.kind === "entry-point")!;
  const chunks = built.outputs.filter((o) => o.kind === "chunk");
  expect(chunks.length).toBeGreaterThan(5); // split at all

  // Chunks reachable from the entry by static imports only.
  const loaded = new Map<string, string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    const text = readFileSync(file, "utf8");
    loaded.set(file, text);
    for (const m of text.matchAll(/(?:from|import)\s*"\.\/(chunk-[\w-]+\.js)"/g)) visit(join(dirname(file), m[1]!));
  };
  visit(entry.path);
  const bytes = [...loaded.values()].reduce((n, t) => n + t.length, 0);
  const total = built.outputs.reduce((n, o) => n + o.size, 0);
  console.log(`[startup] --version loads ${loaded.size} chunk(s), ${bytes} bytes of ${total}`);
  expect(bytes).toBeLessThan(64 * 1024);
  for (const [name, marker] of HEAVY) {
    expect(
      [...loaded].filter(([, t]) => t.includes(marker)).map(([f]) => basename(f)),
      name,
    ).toEqual([]);
    // ...and the marker is in the bundle somewhere (the check can fail).
    expect(
      built.outputs.some((o) => readFileSync(o.path, "utf8").includes(marker)),
      name,
    ).toBe(true);
  }
});

// `vouch validate` of a graph in a folder without a ledger loads neither the ledger's
// code nor git's (ADR 0074): both are imported when first needed (src/cli/validate-lazy.ts).
// The yaml library is in the chunks, but initialised only when required (yaml-front.ts).
test("validate's chunk and its static imports hold no ledger and no git code", async () => {
  const dir = join(out, "validate");
  const built = await Bun.build({ ...BUNDLE_OPTIONS, bytecode: false, target: "bun", outdir: dir });
  expect(built.success).toBe(true);
  const texts = new Map(built.outputs.map((o) => [o.path, readFileSync(o.path, "utf8")]));
  const marker = "nothing to validate: the folder";
  const validate = [...texts].filter(([, t]) => t.includes(marker)).map(([f]) => f);
  expect(validate).toHaveLength(1);
  const loaded = new Map<string, string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    const text = texts.get(file) ?? readFileSync(file, "utf8");
    loaded.set(file, text);
    for (const m of text.matchAll(/(?:from|import)\s*"\.\/(chunk-[\w-]+\.js)"/g)) visit(join(dirname(file), m[1]!));
  };
  visit(validate[0]!);
  // bun:sqlite is the ledger; "--show-toplevel" is git.ts's repoRoot.
  for (const m of ["bun:sqlite", "--show-toplevel"]) {
    expect(
      [...loaded].filter(([, t]) => t.includes(m)).map(([f]) => basename(f)),
      m,
    ).toEqual([]);
    expect(
      [...texts.values()].some((t) => t.includes(m)),
      m,
    ).toBe(true);
  }
});
