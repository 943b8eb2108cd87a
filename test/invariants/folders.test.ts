// docs/architecture.md §2 invariants 8 to 11: every folder's imports, who may import
// the composition root, the executors and the real git, where a transport's packages
// load, and no import cycle. Read with the TypeScript parser (ts-facts.ts) as
// layers.test.ts reads invariants 1 to 5, and each rule run on a planted tree that
// breaks it, beside files that look alike and break nothing; an allowlist entry
// nothing matches any more fails too.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { againstAllowed, cycles, TYPE_CYCLES_ALLOWED, typeOnlyCycles, VALUE_CYCLES_ALLOWED, valueCycles } from "./cycle-rules.ts";
import {
  againstKnown,
  FOLDER_RULES,
  folderBreaches,
  IMPORTED_ONLY_BY,
  KNOWN_BREACHES,
  strayFolderPackages,
  strayTransportPackages,
  unlistedExecutorFolders,
  unwantedImporters,
} from "./folder-rules.ts";
import type { Facts } from "./layer-rules.ts";
import { FILE_LINES, FUNCTION_LINES, oversized, SIZE_LIMITED } from "./size-rules.ts";
import { ROOT } from "./source-scan.ts";
import { scanProject } from "./ts-facts.ts";

const value = (to: string, name = "x") => `import { ${name} } from "${to}";\nexport const y = ${name};\n`;

/** Each rule broken once or more, beside imports of the same look that are allowed. */
const PLANTED: Record<string, string> = {
  // engine pieces
  "src/engine/run/loop.ts": "export const x = 1;\nexport type T = 1;\n",
  "src/engine/ports.ts": "export type P = 1;\nexport const x = 1;\n",
  "src/engine/graph/walks.ts": 'import type { T } from "../run/loop.ts";\nexport type W = T;\n',
  "src/engine/verdict/lazy.ts": 'export const load = () => import("../run/loop.ts");\n',
  "src/engine/scheduler/fine.ts": value("../ports.ts"),
  "src/engine/reaches-out.ts": value("../executor/registry.ts"),
  // the real git
  "src/workspace/git.ts": `${value("../spawn/process.ts")}import type { P } from "../engine/ports.ts";\nexport type G = P;\n`,
  "src/workspace/harnessed.ts": value("../spawn/harness/claude.ts"),
  "src/workspace/looping.ts": value("../engine/run/loop.ts"),
  "src/workspace/shows.ts": value("../tui/view.ts"),
  "src/spawn/process.ts": "export const x = 1;\n",
  "src/spawn/harness/claude.ts": "export const x = 1;\n",
  "src/spawn/wants-cli.ts": value("../cli/io.ts"),
  "src/tui/view.ts": value("../workspace/git.ts", "y"),
  // executors
  "src/executor/registry.ts": "export const x = 1;\n",
  "src/executor/worker-host.ts": `${value("../engine/run/loop.ts")}import type { Redis } from "ioredis";\nexport type R = Redis;\n`,
  "src/executor/records.ts": value("../ledger/x.ts"),
  "src/executor/redis/worker.ts": `import { Worker } from "bullmq";\nimport type { TakenJob } from "../worker-host.ts";\n${value("../../spawn/process.ts")}export type J = [Worker, TakenJob];\n`,
  "src/executor/redis/runs-branches.ts": value("../../engine/run/loop.ts"),
  "src/ledger/x.ts": "export const x = 1;\n",
  // the composition root
  "src/cli/io.ts": "export const x = 1;\n",
  "src/cli/worker-command.ts": `${value("../executor/registry.ts")}export const load = () => import("../executor/redis/worker.ts");\n`,
  "src/cli/queue.ts": 'import { Queue } from "bullmq";\nexport const q = Queue;\n',
  "src/cli/mcp/server.ts": 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport const s = McpServer;\n',
  "src/cli/serves-mcp.ts": 'import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport type S = McpServer;\n',
  "src/cli.ts": value("./cli/io.ts"),
  // cycles: a value pair, a lazy value triangle, a file that imports itself, a pair a type import closes
  "src/a/one.ts": value("./two.ts"),
  "src/a/two.ts": value("./one.ts"),
  "src/b/p.ts": value("./q.ts"),
  "src/b/q.ts": 'export const load = () => import("./r.ts");\nexport const x = 1;\n',
  "src/b/r.ts": value("./p.ts"),
  "src/c/self.ts": 'import * as me from "./self.ts";\nexport const x = 1;\nexport const y = me;\n',
  "src/d/types.ts": 'import type { U } from "./uses.ts";\nexport type T = U | 1;\n',
  "src/d/uses.ts": 'import type { T } from "./types.ts";\nexport type U = T[];\n',
  // sizes: one file too long, one function too long, one just at the limit
  "src/executor/long-file.ts": "export const x = 1;\n".repeat(FILE_LINES + 1),
  "src/executor/long-function.ts": `export function long(): number {\n${"  void 0;\n".repeat(FUNCTION_LINES - 2)}  return 1;\n}\nexport const atLimit = () => {\n${"  void 0;\n".repeat(FUNCTION_LINES - 2)}};\n`,
};

let real: Facts;
let planted: Facts;
let plantedRoot: string;

beforeAll(async () => {
  plantedRoot = mkdtempSync(join(tmpdir(), "vouch-folders-"));
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

describe("invariant 8: what each folder may import", () => {
  test("every folder under a rule exists", () => {
    for (const folder of [...Object.keys(FOLDER_RULES), ...Object.keys(IMPORTED_ONLY_BY)])
      expect(
        [...real.keys()].some((f) => f.startsWith(folder)),
        folder,
      ).toBe(true);
  });
  test("src/ keeps the folder rules and the import-only-by rules, but for the known breaches being removed elsewhere", () => {
    const found = [...folderBreaches(real), ...unwantedImporters(real)];
    expect(againstKnown(found, KNOWN_BREACHES).unlisted).toEqual([]);
  });
  test("every known breach is still there (a stale entry would quietly allow it again)", () => {
    const found = [...folderBreaches(real), ...unwantedImporters(real)];
    expect(againstKnown(found, KNOWN_BREACHES).stale).toEqual([]);
  });
  test("the rules can fail: engine pieces reaching run/ (a type, a dynamic import), git reaching a harness, the run loop or an output, a transport its own ports, an executor the ledger, the root a transport", () => {
    expect(folderBreaches(planted)).toEqual([
      "src/cli/worker-command.ts -> src/executor/redis/worker.ts",
      "src/engine/graph/walks.ts -> src/engine/run/loop.ts",
      "src/engine/verdict/lazy.ts -> src/engine/run/loop.ts",
      "src/executor/records.ts -> src/ledger/x.ts",
      "src/executor/redis/runs-branches.ts -> src/engine/run/loop.ts",
      "src/executor/redis/worker.ts -> src/spawn/process.ts",
      "src/workspace/harnessed.ts -> src/spawn/harness/claude.ts",
      "src/workspace/looping.ts -> src/engine/run/loop.ts",
      "src/workspace/shows.ts -> src/tui/view.ts",
    ]);
  });
  test("the rule can fail: a folder imported from where it may not be", () => {
    expect(unwantedImporters(planted)).toEqual([
      "src/engine/reaches-out.ts -> src/executor/registry.ts",
      "src/spawn/wants-cli.ts -> src/cli/io.ts",
      "src/tui/view.ts -> src/workspace/git.ts",
    ]);
  });
  test("every folder of src/executor/ is a listed transport (held to the transport's rule) or listed as none", () => {
    expect(unlistedExecutorFolders(real.keys())).toEqual([]);
    expect(unlistedExecutorFolders(["src/executor/redis/a.ts", "src/executor/nats/b.ts", "src/executor/host.ts"])).toEqual([
      "src/executor/nats/",
    ]);
  });
  test("the allowlist check can fail both ways", () => {
    expect(againstKnown(["a -> b", "c -> d"], ["a -> b", "e -> f"])).toEqual({ unlisted: ["c -> d"], stale: ["e -> f"] });
  });
});

describe("invariant 9: a transport's packages load only in its folder", () => {
  test("bullmq and ioredis appear only under src/executor/redis/", () => {
    expect(strayTransportPackages(real)).toEqual([]);
  });
  test("the packages are used there (the rule's names are not stale)", () => {
    expect(strayTransportPackages(real, { bullmq: "src/none/", ioredis: "src/none/" }).length).toBeGreaterThan(0);
  });
  test("the rule can fail: a value import in the root, a type import in the worker host", () => {
    expect(strayTransportPackages(planted)).toEqual(["src/cli/queue.ts -> bullmq", "src/executor/worker-host.ts -> ioredis"]);
  });
});

describe("invariant 9: the MCP SDK loads only in src/cli/mcp/ (ADR 0065)", () => {
  test("@modelcontextprotocol/sdk is imported only under src/cli/mcp/, and is imported there", () => {
    expect(strayFolderPackages(real)).toEqual([]);
    expect(strayFolderPackages(real, { "@modelcontextprotocol/sdk": "src/none/" }).length).toBeGreaterThan(0);
  });
  test("the rule can fail: a type import elsewhere in the root", () => {
    expect(strayFolderPackages(planted)).toEqual(["src/cli/serves-mcp.ts -> @modelcontextprotocol/sdk/server/mcp.js"]);
  });
});

describe("invariant 10: no value import cycle in src/", () => {
  test("no value cycle (VALUE_CYCLES_ALLOWED is empty since the engine's untie, ADR 0036)", () => {
    expect(againstAllowed(valueCycles(real), VALUE_CYCLES_ALLOWED)).toEqual({ unlisted: [], stale: [] });
  });
  test("the rule can fail: a pair, a triangle one dynamic import closes, a file importing itself; types close none", () => {
    expect(valueCycles(planted)).toEqual([["src/a/one.ts", "src/a/two.ts"], ["src/b/p.ts", "src/b/q.ts", "src/b/r.ts"], ["src/c/self.ts"]]);
  });
});

describe("invariant 11: cycles only types close are listed, and the list is short", () => {
  test(`the type-only cycles of src/ are the ${TYPE_CYCLES_ALLOWED.length} listed, no more and no fewer`, () => {
    const found = typeOnlyCycles(real);
    console.log(`[cycles] type-only: ${found.map((c) => `${c.length} files (${c[0]}…)`).join("; ") || "none"}`);
    expect(againstAllowed(found, TYPE_CYCLES_ALLOWED)).toEqual({ unlisted: [], stale: [] });
    expect(TYPE_CYCLES_ALLOWED.length).toBeLessThanOrEqual(3);
  });
  test("the rule can fail: a pair of type imports is a type-only cycle; a value cycle is not counted twice", () => {
    expect(typeOnlyCycles(planted)).toEqual([["src/d/types.ts", "src/d/uses.ts"]]);
    expect(cycles(planted, false)).toContainEqual(["src/a/one.ts", "src/a/two.ts"]);
  });
  test("the allowlist check can fail both ways", () => {
    expect(againstAllowed([["a", "b"]], [["c"], ["b", "a"]])).toEqual({ unlisted: [], stale: ["c"] });
    expect(againstAllowed([["x"]], [])).toEqual({ unlisted: ["x"], stale: [] });
  });
});

describe("small pieces: files and functions in the size-limited folders", () => {
  test(`no file over ${FILE_LINES} lines and no function over ${FUNCTION_LINES} in ${SIZE_LIMITED.join(", ")}`, () => {
    expect(oversized(real)).toEqual([]);
  });
  test("the rule can fail: a long file and a long function are caught, one at the limit is not", () => {
    expect(oversized(planted)).toEqual([
      `src/executor/long-file.ts: ${FILE_LINES + 1} lines`,
      `src/executor/long-function.ts:1 long: ${FUNCTION_LINES + 1} lines`,
    ]);
  });
  test("the parser counts what it should: the worker host's run() is found, with its lines", () => {
    const run = real.get("src/executor/worker-host.ts")!.functions.find((f) => f.name === "run");
    expect(run?.lines).toBeGreaterThan(20);
  });
});
