// docs/architecture.md §2 invariants 1 to 5, checked on src/ as the TypeScript
// parser reads it (ts-facts.ts), never on the text: a comment or a string that
// mentions Bun.spawn is not a spawn, `import type` loads nothing. Each rule is
// also run on a planted tree that breaks it, so every rule can fail; and an
// allowlist entry nothing uses fails too (it would quietly allow more).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ENGINE_ALLOWED,
  ENV_FILE,
  SPAWNING_FILE,
  engineHostAccess,
  engineImportsBeyond,
  envReadersInSpawn,
  importsInto,
  processStarts,
  spawnersOutsideTheSeam,
  staleAllowances,
  zodReachedFromSpawn,
  type Facts,
} from "./layer-rules.ts";
import { ROOT } from "./source-scan.ts";
import { scanProject } from "./ts-facts.ts";

/** A tree that breaks every rule once, beside files that look alike and break none. */
const PLANTED: Record<string, string> = {
  "src/spawn/process.ts": 'export const p = Bun.spawn(["ls"]);\n',
  "src/spawn/child-env.ts": "export const e = process.env;\n",
  "src/spawn/mentions.ts": '// Bun.spawn(["ls"]) and process.env, in a comment\nexport const s = "Bun.spawn process.env child_process";\n',
  "src/spawn/bun-named.ts": 'import { file, spawnSync as run } from "bun";\nexport const r = [file, run];\n',
  "src/spawn/bun-element.ts": 'export const f = Bun["spawn"];\n',
  "src/spawn/node-cp.ts": 'const cp = require("node:child_process");\nexport { cp };\n',
  "src/spawn/types-only.ts":
    'import type { Subprocess } from "bun";\nimport { type Spawn } from "bun";\nimport type { T } from "../engine/graph/schema.ts";\nexport type X = [Subprocess, Spawn, T];\n',
  "src/spawn/to-tui.ts": 'import { x } from "../tui/view.ts";\nexport const y = x;\n',
  "src/spawn/to-ledger.ts": 'export const load = () => import("../ledger/x.ts");\n',
  "src/spawn/uses-schema.ts": 'import { CAP } from "../engine/graph/schema.ts";\nexport const c = CAP;\n',
  "src/spawn/via-engine.ts": 'import { y } from "../engine/mid.ts";\nexport const v = y;\n',
  "src/spawn/env.ts": 'export const h = process["env"].HOME;\n',
  "src/engine/graph/schema.ts": 'import { z } from "zod";\nexport const CAP = 1;\nexport type T = z.ZodType;\n',
  "src/engine/mid.ts": 'export { CAP as y } from "./graph/schema.ts";\n',
  "src/engine/plain.ts": "export const n = 1;\n",
  "src/engine/bad.ts":
    'import { readFileSync } from "node:fs";\nimport "../ledger/x.ts";\nexport const b = [readFileSync, Bun.file("x"), () => import("../cli/y.ts")];\n',
  "src/tui/view.ts":
    'import { n } from "../engine/plain.ts";\nimport type { E } from "../engine/events.ts";\nexport const x: E | number = n;\n',
  "src/ledger/x.ts": 'import type { E } from "../engine/events.ts";\nexport type L = E;\n',
  "src/engine/events.ts": "export type E = 1;\n",
};

let real: Facts;
let planted: Facts;
let plantedRoot: string;

beforeAll(async () => {
  plantedRoot = mkdtempSync(join(tmpdir(), "vouch-layers-"));
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

describe("the parser sees the whole tree", () => {
  test("every source file of src/ is read, each with its imports", () => {
    expect(real.size).toBeGreaterThan(100);
    expect(real.get("src/cli.ts")!.imports.length).toBeGreaterThan(5);
  });
});

describe("invariant 1: only one file starts processes", () => {
  test(`process APIs appear in ${SPAWNING_FILE} and nowhere else in src/`, () => {
    expect(spawnersOutsideTheSeam(real)).toEqual([]);
  });
  test(`${SPAWNING_FILE} does start processes (the name is not stale)`, () => {
    expect(processStarts(real.get(SPAWNING_FILE)!)).toContain("Bun.spawn");
  });
  test("the rule can fail: named, element-access and require forms are caught; comments, strings and types are not", () => {
    expect(spawnersOutsideTheSeam(planted)).toEqual([
      "src/spawn/bun-element.ts: Bun.spawn",
      "src/spawn/bun-named.ts: imports file, spawnSync from bun",
      "src/spawn/node-cp.ts: imports node:child_process",
    ]);
  });
});

describe("invariant 2: src/engine imports nothing outward and touches no host API", () => {
  test("no file in src/engine imports src/spawn, src/tui, src/ledger, src/cli or src/workspace", () => {
    expect(importsInto(real, "src/engine", "spawn|tui|ledger|cli|workspace")).toEqual([]);
  });
  test("src/engine uses no file-system, process or network API, no Bun.* and no process.env", () => {
    expect(engineHostAccess(real)).toEqual([]);
  });
  test("the rules can fail: side-effect and dynamic imports, node:fs and Bun.file are caught", () => {
    expect(importsInto(planted, "src/engine", "spawn|tui|ledger|cli")).toEqual([
      "src/engine/bad.ts -> ../ledger/x.ts",
      "src/engine/bad.ts -> ../cli/y.ts",
    ]);
    expect(engineHostAccess(planted)).toEqual(["src/engine/bad.ts imports node:fs", "src/engine/bad.ts uses Bun.file"]);
  });
});

describe("invariants 3 and 4: the outputs and the ledger read the event union, never the run loop", () => {
  for (const layer of ["tui", "ledger"] as const) {
    test(`src/${layer} imports from src/engine only ${ENGINE_ALLOWED[layer].join(", ")}`, () => {
      expect(engineImportsBeyond(real, layer)).toEqual([]);
    });
    test(`every src/${layer} allowlist entry is in use`, () => {
      expect(staleAllowances(real, layer)).toEqual([]);
    });
  }
  test("src/tui imports no src/spawn, src/ledger or src/cli; src/ledger no src/spawn, src/tui or src/cli", () => {
    expect(importsInto(real, "src/tui", "spawn|ledger|cli")).toEqual([]);
    expect(importsInto(real, "src/ledger", "spawn|tui|cli")).toEqual([]);
  });
  test("the rules can fail: an engine import beyond the list, and an unused entry, are caught", () => {
    expect(engineImportsBeyond(planted, "tui")).toEqual(["src/tui/view.ts -> ../engine/plain.ts"]);
    expect(staleAllowances(planted, "ledger", ["src/engine/events.ts", "src/engine/ports.ts"])).toEqual(["src/engine/ports.ts"]);
  });
});

describe("the spawn seam depends on the engine's types, not on its outputs or schemas", () => {
  test("src/spawn imports no src/tui, src/ledger or src/cli", () => {
    expect(importsInto(real, "src/spawn", "tui|ledger|cli")).toEqual([]);
  });
  test("no value import from src/spawn loads zod (src/engine/graph/schema.ts, the event schemas), directly or through another module", () => {
    expect(zodReachedFromSpawn(real)).toEqual([]);
  });
  test("the rules can fail: a dynamic import outward, a schema value, a re-export chain are caught; a type import is not", () => {
    expect(importsInto(planted, "src/spawn", "tui|ledger|cli")).toEqual([
      "src/spawn/to-ledger.ts -> ../ledger/x.ts",
      "src/spawn/to-tui.ts -> ../tui/view.ts",
    ]);
    expect(zodReachedFromSpawn(planted)).toEqual([
      "src/spawn/uses-schema.ts -> ../engine/graph/schema.ts (CAP)",
      "src/spawn/via-engine.ts -> ../engine/mid.ts (y)",
    ]);
  });
});

describe("invariant 5: one function builds every child environment", () => {
  test(`process.env is read in src/spawn only by ${ENV_FILE}`, () => {
    expect(envReadersInSpawn(real)).toEqual([]);
  });
  test(`${ENV_FILE} does read it (the name is not stale)`, () => {
    expect(real.get(ENV_FILE)!.accesses).toContain("process.env");
  });
  test("the rule can fail: process['env'] is caught, a comment is not", () => {
    expect(envReadersInSpawn(planted)).toEqual(["src/spawn/env.ts"]);
  });
});
