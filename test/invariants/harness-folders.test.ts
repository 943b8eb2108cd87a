// A harness is a unit (docs/architecture.md §9, ADR 0034): a folder
// src/spawn/harness/<name>/ imports, from src/spawn/harness, only common/,
// types.ts and itself — never the registry, the runner or another harness
// (replay plays claude's recordings through claude's parser: the one allowed
// pair). common/ imports no harness folder. Checked on the parsed imports
// (ts-facts.ts), and on a planted tree that breaks the rule.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { target, type Facts } from "./layer-rules.ts";
import { ROOT } from "./source-scan.ts";
import { scanProject } from "./ts-facts.ts";

const BASE = "src/spawn/harness/";
/** Folders a harness folder may import besides common/ and itself. Every entry must be in use. */
export const HARNESS_FOLDER_ALLOWED: Readonly<Record<string, readonly string[]>> = { replay: ["claude"] };

/** The folder of a path under src/spawn/harness/, or null for a top-level file (the contract, registry, loops). */
function folderOf(path: string): string | null {
  const rest = path.slice(BASE.length);
  const slash = rest.indexOf("/");
  return slash < 0 ? null : rest.slice(0, slash);
}

/** Imports out of a harness folder (or out of common/) that the rule does not allow, as "file -> spec". */
export function harnessFolderLeaks(facts: Facts, allowed = HARNESS_FOLDER_ALLOWED): string[] {
  const out: string[] = [];
  for (const [f, x] of [...facts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!f.startsWith(BASE)) continue;
    const own = folderOf(f);
    if (own === null) continue;
    for (const i of x.imports) {
      const t = target(f, i.spec);
      if (!t.startsWith(BASE)) continue;
      const to = folderOf(t);
      const ok =
        to === null ? t === `${BASE}types.ts` : to === own || (own !== "common" && (to === "common" || (allowed[own] ?? []).includes(to)));
      if (!ok) out.push(`${f} -> ${i.spec}`);
    }
  }
  return out;
}

/** Allowances no file uses (the list would quietly allow more than is used). */
function staleAllowances(facts: Facts, allowed = HARNESS_FOLDER_ALLOWED): string[] {
  const used = new Set<string>();
  for (const [f, x] of facts) {
    const own = f.startsWith(BASE) ? folderOf(f) : null;
    if (own === null) continue;
    for (const i of x.imports) {
      const t = target(f, i.spec);
      if (t.startsWith(BASE)) used.add(`${own}->${folderOf(t)}`);
    }
  }
  return Object.entries(allowed).flatMap(([from, tos]) => tos.filter((to) => !used.has(`${from}->${to}`)).map((to) => `${from}->${to}`));
}

const PLANTED: Record<string, string> = {
  "src/spawn/harness/types.ts": "export type T = 1;\n",
  "src/spawn/harness/registry.ts": 'export { a } from "./alpha/adapter.ts";\n',
  "src/spawn/harness/common/util.ts": "export const u = 1;\n",
  "src/spawn/harness/common/reaches.ts": 'import { a } from "../alpha/adapter.ts";\nexport const r = a;\n',
  "src/spawn/harness/alpha/adapter.ts":
    'import type { T } from "../types.ts";\nimport { u } from "../common/util.ts";\nimport { s } from "./stream.ts";\nimport "../../process.ts";\nexport const a: T | number = u + s;\n',
  "src/spawn/harness/alpha/stream.ts": "export const s = 1;\n",
  "src/spawn/harness/beta/adapter.ts":
    'import { s } from "../alpha/stream.ts";\nimport { a } from "../registry.ts";\nexport const b = () => import("../gamma/x.ts").then(() => s + a);\n',
  "src/spawn/harness/gamma/x.ts": 'import { s } from "../alpha/stream.ts";\nexport const g = s;\n',
  "src/spawn/process.ts": "export const p = 1;\n",
};

let real: Facts;
let planted: Facts;
let plantedRoot: string;

beforeAll(async () => {
  plantedRoot = mkdtempSync(join(tmpdir(), "vouch-harness-folders-"));
  writeFileSync(
    join(plantedRoot, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, allowJs: false }, include: ["src"] }),
  );
  for (const [file, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(plantedRoot, file)), { recursive: true });
    writeFileSync(join(plantedRoot, file), text);
  }
  [real, planted] = await Promise.all([scanProject(ROOT, ["src/spawn"]), scanProject(plantedRoot, ["src"])]);
}, 120_000);

afterAll(() => {
  if (plantedRoot) rmSync(plantedRoot, { recursive: true, force: true });
});

describe("a harness folder is a unit", () => {
  test("the five folders exist and each imports only common/, types.ts, itself (replay: claude/)", () => {
    const folders = new Set([...real.keys()].filter((f) => f.startsWith(BASE)).map(folderOf));
    for (const f of ["claude", "codex", "gemini", "command", "replay", "common"]) expect(folders, f).toContain(f);
    expect(harnessFolderLeaks(real)).toEqual([]);
  });
  test("every allowance is in use", () => {
    expect(staleAllowances(real)).toEqual([]);
  });
  test("the rule can fail: another harness, the registry, a dynamic import and common/ reaching a harness are caught", () => {
    expect(harnessFolderLeaks(planted)).toEqual([
      "src/spawn/harness/beta/adapter.ts -> ../alpha/stream.ts",
      "src/spawn/harness/beta/adapter.ts -> ../registry.ts",
      "src/spawn/harness/beta/adapter.ts -> ../gamma/x.ts",
      "src/spawn/harness/common/reaches.ts -> ../alpha/adapter.ts",
      "src/spawn/harness/gamma/x.ts -> ../alpha/stream.ts",
    ]);
    expect(staleAllowances(planted, { beta: ["alpha"], gamma: ["beta"] })).toEqual(["gamma->beta"]);
  });
});
