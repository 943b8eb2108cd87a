// The engine's node contract (ADR 0036, docs/architecture.md §2 invariant 13): a node handler
// depends on src/engine/run/contract.ts, never on the run's state (RunContext) or a
// scope, so a new node kind joins no import loop; and the contract sits at the bottom
// of src/engine/run/, importing only its leaves (that graph/, verdict/, scheduler/ and
// workspace/ import nothing of run/ is folders.test.ts's). Read with the TypeScript
// parser (ts-facts.ts), every import counted, types too; each rule also runs on a
// planted tree that breaks it, so it can fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { target, type Facts } from "./layer-rules.ts";
import { ROOT } from "./source-scan.ts";
import { scanProject } from "./ts-facts.ts";

const RUN = "src/engine/run";
const CONTRACT = `${RUN}/contract.ts`;
/** Where every handler is reached from. */
const DISPATCH = `${RUN}/node-handlers.ts`;
/** The run's state and its scopes: what a handler must not reach. */
const SCOPE_SIDE = [
  "context.ts",
  "scope-runner.ts",
  "run-graph.ts",
  "map-runner.ts",
  "subgraph-runner.ts",
  "branch-launch.ts",
  "branch-job.ts",
].map((f) => `${RUN}/${f}`);

/** Files of src/ reached from `from` through imports of every kind, `from` included. */
function reached(facts: Facts, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f) || !facts.has(f)) continue;
    seen.add(f);
    for (const i of facts.get(f)!.imports) if (i.spec.startsWith(".")) stack.push(target(f, i.spec));
  }
  return seen;
}

/** Imports, from any file a node handler reaches, into the run's state or a scope. */
export function handlersReachingScopes(facts: Facts): string[] {
  const out: string[] = [];
  for (const f of [...reached(facts, DISPATCH)].sort())
    for (const i of facts.get(f)!.imports) if (SCOPE_SIDE.includes(target(f, i.spec))) out.push(`${f} -> ${i.spec}`);
  return out;
}

/** Files of src/engine/run/ the contract imports that themselves import another file of src/engine/run/. */
export function contractAboveLeaves(facts: Facts): string[] {
  const inRun = (f: string) => f.startsWith(`${RUN}/`);
  const out: string[] = [];
  for (const i of facts.get(CONTRACT)?.imports ?? []) {
    const t = target(CONTRACT, i.spec);
    if (!inRun(t)) continue;
    const above = (facts.get(t)?.imports ?? []).map((j) => target(t, j.spec)).filter(inRun);
    if (above.length > 0) out.push(`${CONTRACT} -> ${i.spec} (which imports ${above.join(", ")})`);
  }
  return out;
}

const PLANTED: Record<string, string> = {
  [DISPATCH]: 'import { a } from "./agent-node.ts";\nimport { s } from "./simple-nodes.ts";\nexport const h = [a, s];\n',
  [`${RUN}/agent-node.ts`]:
    'import type { NodeEnv } from "./contract.ts";\nimport { j } from "./judging.ts";\nexport const a = (e: NodeEnv) => [e, j];\n',
  [`${RUN}/judging.ts`]: 'import type { RunContext } from "./context.ts";\nexport const j = (c: RunContext) => c;\n',
  [`${RUN}/simple-nodes.ts`]: 'import type { NodeEnv } from "./contract.ts";\nexport const s = (e: NodeEnv) => e;\n',
  [CONTRACT]: 'import type { E } from "./emitter.ts";\nimport type { V } from "./node-view.ts";\nexport interface NodeEnv { e: E; v: V }\n',
  [`${RUN}/emitter.ts`]: 'import type { X } from "../events.ts";\nexport type E = X;\n',
  [`${RUN}/node-view.ts`]: 'import type { NodeEnv } from "./contract.ts";\nexport type V = NodeEnv;\n',
  [`${RUN}/context.ts`]: 'import { h } from "./node-handlers.ts";\nexport class RunContext { h = h; }\n',
  "src/engine/events.ts": "export type X = 1;\n",
};

let real: Facts;
let planted: Facts;
let plantedRoot: string;

beforeAll(async () => {
  plantedRoot = mkdtempSync(join(tmpdir(), "vouch-contract-"));
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

describe("node handlers depend on the node contract, not on the run's state", () => {
  test("the names are not stale: the dispatch reaches the handlers, and the contract and the scope side exist", () => {
    const fromDispatch = reached(real, DISPATCH);
    for (const h of ["agent-node.ts", "script-node.ts", "simple-nodes.ts", "merge-node.ts", "contract.ts"])
      expect(fromDispatch).toContain(`${RUN}/${h}`);
    for (const f of SCOPE_SIDE) expect(real.has(f)).toBe(true);
  });
  test("nothing a handler reaches imports RunContext, a scope runner or the driver (types included)", () => {
    expect(handlersReachingScopes(real)).toEqual([]);
  });
  test("the contract imports, within src/engine/run/, only files that import nothing else there", () => {
    expect(contractAboveLeaves(real)).toEqual([]);
  });
  test("the rules can fail: a type import two files down, and a contract reaching above its leaves, are caught", () => {
    expect(handlersReachingScopes(planted)).toEqual([`${RUN}/judging.ts -> ./context.ts`]);
    expect(contractAboveLeaves(planted)).toEqual([`${CONTRACT} -> ./node-view.ts (which imports ${CONTRACT})`]);
  });
});
