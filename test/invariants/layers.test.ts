// docs/architecture.md §2 invariants 1, 2, 3 and 5, checked on the source text.
import { describe, expect, test } from "vitest";
import { dirname, join, normalize } from "node:path";
import { importsOf, read, sourceFiles } from "./source-scan.ts";

/** The one file allowed to start processes (invariant 1). */
export const SPAWNING_FILE = "src/spawn/process.ts";
const SPAWN_API = /Bun\.spawn|Bun\.spawnSync|Bun\.\$|Bun\[\s*["'`](spawn|spawnSync|\$)|child_process|spawnSync|execSync|execFile/;
/** The same APIs imported from the "bun" module: `import { spawn, $ } from "bun"`, or the whole module. */
const BUN_IMPORT = /import\s+(?!type\b)(\*\s+as\s+\w+|\{[^}]*\})\s*from\s*["']bun["']/g;
function startsProcesses(text: string): boolean {
  if (SPAWN_API.test(text)) return true;
  for (const m of text.matchAll(BUN_IMPORT)) {
    if (m[1]!.startsWith("*")) return true;
    const names = m[1]!.slice(1, -1).split(",").map((n) => n.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!);
    if (names.some((n) => n === "spawn" || n === "spawnSync" || n === "$")) return true;
  }
  return false;
}

function resolved(file: string, spec: string): string {
  return spec.startsWith(".") ? normalize(join(dirname(file), spec)) : spec;
}

describe("invariant 1: only one file starts processes", () => {
  test(`process APIs appear in ${SPAWNING_FILE} and nowhere else in src/`, () => {
    const offenders = sourceFiles("src").filter((f) => f !== SPAWNING_FILE && startsProcesses(read(f)));
    expect(offenders).toEqual([]);
  });

  test("the scan itself detects a spawning file (the pattern can fail)", () => {
    expect(SPAWN_API.test('const p = Bun.spawn(["ls"])')).toBe(true);
    expect(SPAWN_API.test('import { spawn } from "node:child_process"')).toBe(true);
    expect(SPAWN_API.test("await Bun.$`ls`")).toBe(true);
    expect(startsProcesses('import { spawn } from "bun";\nspawn(["ls"]);')).toBe(true);
    expect(startsProcesses('import { $ } from "bun";\nawait $`ls`;')).toBe(true);
    expect(startsProcesses('import { file, spawnSync as run } from "bun";')).toBe(true);
    expect(startsProcesses('import * as B from "bun";\nB.spawn(["ls"]);')).toBe(true);
    expect(startsProcesses('Bun["spawn"](["ls"]);')).toBe(true);
    expect(startsProcesses('import type { Subprocess } from "bun";')).toBe(false);
    expect(startsProcesses('import { type Subprocess, file } from "bun";')).toBe(false);
  });
});

describe("invariant 2: src/engine imports nothing outward", () => {
  test("no file in src/engine imports src/spawn, src/tui, src/ledger or src/cli", () => {
    const offenders: string[] = [];
    for (const f of sourceFiles("src/engine")) {
      for (const spec of importsOf(f)) {
        const target = resolved(f, spec);
        if (/^src\/(spawn|tui|ledger|cli)(\/|\.ts$)/.test(target)) offenders.push(`${f} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  test("src/engine uses no process or file-system API directly", () => {
    const offenders = sourceFiles("src/engine").filter((f) => /from\s+["'](node:)?(fs|fs\/promises|child_process|net|http)["']|Bun\.(file|write|spawn)/.test(read(f)));
    expect(offenders).toEqual([]);
  });
});

describe("invariant 3: src/tui reads engine types and events only", () => {
  const ALLOWED_ENGINE = new Set([
    "src/engine/events.ts",
    "src/engine/ports.ts",
    "src/engine/errors.ts",
    "src/engine/graph/duration.ts",
  ]);
  test("src/tui imports from src/engine only events, port types, errors and duration formatting", () => {
    const offenders: string[] = [];
    for (const f of sourceFiles("src/tui")) {
      for (const spec of importsOf(f)) {
        const target = resolved(f, spec);
        if (/^src\/(spawn|ledger|cli)(\/|\.ts$)/.test(target)) offenders.push(`${f} -> ${spec}`);
        if (target.startsWith("src/engine/") && !ALLOWED_ENGINE.has(target)) offenders.push(`${f} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("invariant 4: the outputs and the ledger consume the one event union, never the run loop", () => {
  // The TUI, the NDJSON and plain writers (src/tui) and the ledger (src/ledger) may read
  // the event union and port types from the engine, nothing that runs or schedules.
  const ALLOWED_ENGINE = new Set(["src/engine/events.ts", "src/engine/ports.ts", "src/engine/errors.ts", "src/engine/graph/duration.ts"]);
  const offendersIn = (dir: string) => {
    const offenders: string[] = [];
    for (const f of sourceFiles(dir)) {
      for (const spec of importsOf(f)) {
        const target = resolved(f, spec);
        if (target.startsWith("src/engine/") && !ALLOWED_ENGINE.has(target)) offenders.push(`${f} -> ${spec}`);
        if (/^src\/(spawn|cli)(\/|\.ts$)/.test(target)) offenders.push(`${f} -> ${spec}`);
      }
    }
    return offenders;
  };
  test("src/ledger imports from src/engine only events, port types, errors and duration formatting", () => {
    expect(offendersIn("src/ledger")).toEqual([]);
  });
  test("the scan can fail: a consumer importing the run loop is caught", () => {
    expect(resolved("src/ledger/x.ts", "../engine/run.ts").startsWith("src/engine/")).toBe(true);
    expect(ALLOWED_ENGINE.has(resolved("src/ledger/x.ts", "../engine/run.ts"))).toBe(false);
  });
});

describe("invariant 5: one function builds every child environment", () => {
  test("process.env is read in src/spawn only by the environment builder", () => {
    const offenders = sourceFiles("src/spawn").filter((f) => f !== "src/spawn/child-env.ts" && /process\.env/.test(read(f)));
    expect(offenders).toEqual([]);
  });
});
