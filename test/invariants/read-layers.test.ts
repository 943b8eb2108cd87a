// The read side's layers (docs/architecture.md §2, ADR 0035), checked on src/ as the
// TypeScript parser reads it, each rule also on a planted tree that breaks it:
// src/text/ is below every layer (it imports nothing of src/ and no package but
// string-width); the read model, src/read/, loads only the event union and src/text/
// (types from the engine are free); src/report/ reads the ledger and the read model,
// never the command line, the TUI, the spawn seam, the worktrees or the executors, and
// takes from the engine only what its allowlist names (each entry in use).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ENGINE_ALLOWED,
  READ_VALUE_IMPORTS,
  engineImportsBeyond,
  importsInto,
  packagesImported,
  staleAllowances,
  valueImportsBeyond,
  type Facts,
} from "./layer-rules.ts";
import { ROOT } from "./source-scan.ts";
import { scanProject } from "./ts-facts.ts";

const OUTWARD = "engine|spawn|tui|ledger|report|cli|workspace|executor|read";
const ABOVE_READ = "spawn|tui|ledger|report|cli|workspace|executor";
const NOT_FOR_REPORT = "cli|tui|spawn|workspace|executor";

/** A tree that breaks every rule once, beside files that look alike and break none. */
const PLANTED: Record<string, string> = {
  "src/text/ok.ts": 'import w from "string-width";\nimport { x } from "./other.ts";\nexport const y = [w, x];\n',
  "src/text/other.ts": "export const x = 1;\n",
  "src/text/up.ts": 'import { E } from "../engine/events.ts";\nexport const u = E;\n',
  "src/text/pkg.ts": 'import { z } from "zod";\nexport const p = z;\n',
  "src/read/ok.ts":
    'import { E } from "../engine/events.ts";\nimport type { G } from "../engine/graph/schema.ts";\nimport { x } from "../text/other.ts";\nexport const r = [E, x] as unknown as G;\n',
  "src/read/to-run.ts": 'import { loop } from "../engine/run/loop.ts";\nexport const l = loop;\n',
  "src/read/to-tui.ts": 'import type { V } from "../tui/view.ts";\nexport type T = V;\n',
  "src/report/ok.ts":
    'import { E } from "../engine/events.ts";\nimport type { L } from "../ledger/x.ts";\nexport const k = E as unknown as L;\n',
  "src/report/to-cli.ts": 'import type { CliIO } from "../cli/io.ts";\nexport type C = CliIO;\n',
  "src/report/to-tui.ts": 'export const t = () => import("../tui/view.ts");\n',
  "src/report/to-run.ts": 'import { loop } from "../engine/run/loop.ts";\nexport const l = loop;\n',
  "src/engine/events.ts": "export const E = 1;\n",
  "src/engine/graph/schema.ts": "export type G = 1;\n",
  "src/engine/run/loop.ts": "export const loop = 1;\n",
  "src/tui/view.ts": "export type V = 1;\n",
  "src/ledger/x.ts": "export type L = 1;\n",
  "src/cli/io.ts": "export type CliIO = 1;\n",
};

let real: Facts;
let planted: Facts;
let plantedRoot: string;

beforeAll(async () => {
  plantedRoot = mkdtempSync(join(tmpdir(), "vouch-read-layers-"));
  writeFileSync(
    join(plantedRoot, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, allowJs: false }, include: ["src"] }),
  );
  for (const [file, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(plantedRoot, file)), { recursive: true });
    writeFileSync(join(plantedRoot, file), text);
  }
  [real, planted] = await Promise.all([scanProject(ROOT, ["src"]), scanProject(plantedRoot, ["src"])]);
}, 120_000);

afterAll(() => {
  if (plantedRoot) rmSync(plantedRoot, { recursive: true, force: true });
});

describe("src/text is below every layer", () => {
  test("it imports nothing of src/ outside itself, and no package but string-width", () => {
    expect([...real.keys()].filter((f) => f.startsWith("src/text/")).length).toBeGreaterThan(5);
    expect(importsInto(real, "src/text", OUTWARD)).toEqual([]);
    expect(packagesImported(real, "src/text")).toEqual(["string-width"]);
  });
  test("the rules can fail", () => {
    expect(importsInto(planted, "src/text", OUTWARD)).toEqual(["src/text/up.ts -> ../engine/events.ts"]);
    expect(packagesImported(planted, "src/text")).toEqual(["string-width", "zod"]);
  });
});

describe("the read model (src/read) loads only the event union and src/text", () => {
  test(`its value imports reach only ${READ_VALUE_IMPORTS.join(", ")}, src/text/ and src/read/; no layer above it, not even for a type`, () => {
    expect([...real.keys()].filter((f) => f.startsWith("src/read/")).length).toBeGreaterThan(3);
    expect(valueImportsBeyond(real, "src/read", READ_VALUE_IMPORTS, ["src/text", "src/read"])).toEqual([]);
    expect(importsInto(real, "src/read", ABOVE_READ)).toEqual([]);
  });
  test("the readers use it: the TUI, the ledger, the reports and vouch show", () => {
    for (const layer of ["src/tui", "src/ledger", "src/report", "src/cli"])
      expect([layer, importsInto(real, layer, "read").length > 0]).toEqual([layer, true]);
  });
  test("the rules can fail: a value import of the run loop and a type import of the TUI are caught; types of the engine are not", () => {
    expect(valueImportsBeyond(planted, "src/read", READ_VALUE_IMPORTS, ["src/text", "src/read"])).toEqual([
      "src/read/to-run.ts -> ../engine/run/loop.ts",
    ]);
    expect(importsInto(planted, "src/read", ABOVE_READ)).toEqual(["src/read/to-tui.ts -> ../tui/view.ts"]);
  });
});

describe("src/report reads the ledger and the read model, never the command line or the TUI", () => {
  test(`no file in src/report imports src/${NOT_FOR_REPORT.split("|").join(", src/")}`, () => {
    expect(importsInto(real, "src/report", NOT_FOR_REPORT)).toEqual([]);
  });
  test(`src/report imports from src/engine only ${ENGINE_ALLOWED.report.join(", ")}, each in use`, () => {
    expect(engineImportsBeyond(real, "report")).toEqual([]);
    expect(staleAllowances(real, "report")).toEqual([]);
  });
  test("the rules can fail: a type import of src/cli, a dynamic import of src/tui, the run loop are caught", () => {
    expect(importsInto(planted, "src/report", NOT_FOR_REPORT)).toEqual([
      "src/report/to-cli.ts -> ../cli/io.ts",
      "src/report/to-tui.ts -> ../tui/view.ts",
    ]);
    expect(engineImportsBeyond(planted, "report")).toEqual(["src/report/to-run.ts -> ../engine/run/loop.ts"]);
    expect(staleAllowances(planted, "report")).toEqual([
      "src/engine/errors.ts",
      "src/engine/cut.ts",
      "src/engine/graph/draw-dot.ts",
      "src/engine/graph/graph-edges.ts",
    ]);
  });
});
