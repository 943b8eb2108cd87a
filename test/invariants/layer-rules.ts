// The layer rules of docs/architecture.md §2, as pure functions of the parsed
// facts (ts-facts.ts): each returns its offenders, so the same rule can be run
// on the real src/ and on a planted tree that must fail it.
import { dirname, join, normalize } from "node:path";
import type { FileFacts } from "./ts-facts.ts";

export type Facts = ReadonlyMap<string, FileFacts>;

/** The one file allowed to start processes (invariant 1). */
export const SPAWNING_FILE = "src/spawn/process.ts";
/** The one file in src/spawn allowed to read process.env (invariant 5). */
export const ENV_FILE = "src/spawn/child-env.ts";

/** What each consumer layer may import from src/engine (invariants 3 and 4). Every entry must be in use.
 *  Durations, money and widths come from src/text/, node views and labels from src/read/ (ADR 0035). */
export const ENGINE_ALLOWED: Record<"tui" | "ledger" | "report", readonly string[]> = {
  // limit-phrase.ts: how a usage limit's reset is said, one home for the TUI, the plain lines and `vouch show` (ADR 0022).
  tui: ["src/engine/events.ts", "src/engine/ports.ts", "src/engine/limit-phrase.ts"],
  // json-depth.ts: the stored-JSON reader cuts what is nested past the engine's own bound (ADR 0019).
  ledger: ["src/engine/events.ts", "src/engine/ports.ts", "src/engine/errors.ts", "src/engine/json-depth.ts", "src/engine/limit-phrase.ts"],
  // draw-dot.ts: the one DOT writer, the picture `vouch graph` draws (graph-edges.ts: its edge type);
  // cut.ts: a report's check tail is cut as the engine cuts one.
  report: [
    "src/engine/events.ts",
    "src/engine/errors.ts",
    "src/engine/cut.ts",
    "src/engine/graph/draw-dot.ts",
    "src/engine/graph/graph-edges.ts",
  ],
};

const PROCESS_ACCESS = new Set(["Bun.spawn", "Bun.spawnSync", "Bun.$"]);
const PROCESS_MODULES = new Set(["child_process", "node:child_process"]);
const BUN_PROCESS_NAMES = new Set(["spawn", "spawnSync", "$", "*", "default"]);
const HOST_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|os)$/;

export function target(file: string, spec: string): string {
  return spec.startsWith(".") ? normalize(join(dirname(file), spec)) : spec;
}

function inLayer(path: string, layers: string): boolean {
  return new RegExp(`^src/(${layers})(/|\\.ts$)`).test(path);
}

function filesUnder(facts: Facts, dir: string): [string, FileFacts][] {
  return [...facts].filter(([f]) => f.startsWith(`${dir}/`)).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Why a file starts processes (empty: it does not). */
export function processStarts(f: FileFacts): string[] {
  const why = f.accesses.filter((a) => PROCESS_ACCESS.has(a));
  // A Bun Worker is a thread that may start processes (ADR 0081's spawn workers): it is started
  // in the spawning file too. A `Worker` the file imports (bullmq's queue worker) is no thread.
  const importsWorker = f.imports.some((i) => !i.typeOnly && i.names.includes("Worker"));
  if (f.accesses.includes("new Worker") && !importsWorker) why.push("new Worker (a thread that starts processes)");
  for (const i of f.imports) {
    if (i.typeOnly) continue;
    if (PROCESS_MODULES.has(i.spec)) why.push(`imports ${i.spec}`);
    if (i.spec === "bun" && i.names.some((n) => BUN_PROCESS_NAMES.has(n))) why.push(`imports ${i.names.join(", ")} from bun`);
  }
  return why;
}

export function spawnersOutsideTheSeam(facts: Facts): string[] {
  return filesUnder(facts, "src")
    .filter(([f, x]) => f !== SPAWNING_FILE && processStarts(x).length > 0)
    .map(([f, x]) => `${f}: ${processStarts(x).join("; ")}`);
}

/** Imports from files under `dir` whose target is in one of `layers` (a regex alternation). */
export function importsInto(facts: Facts, dir: string, layers: string): string[] {
  const out: string[] = [];
  for (const [f, x] of filesUnder(facts, dir))
    for (const i of x.imports) if (inLayer(target(f, i.spec), layers)) out.push(`${f} -> ${i.spec}`);
  return out;
}

export function engineHostAccess(facts: Facts): string[] {
  const out: string[] = [];
  for (const [f, x] of filesUnder(facts, "src/engine")) {
    for (const i of x.imports) if (!i.typeOnly && HOST_MODULES.test(i.spec)) out.push(`${f} imports ${i.spec}`);
    for (const a of new Set(x.accesses)) if (a.startsWith("Bun.") || a === "process.env") out.push(`${f} uses ${a}`);
  }
  return out;
}

export function engineImportsBeyond(
  facts: Facts,
  layer: keyof typeof ENGINE_ALLOWED,
  allowed: readonly string[] = ENGINE_ALLOWED[layer],
): string[] {
  const ok = new Set(allowed);
  const out: string[] = [];
  for (const [f, x] of filesUnder(facts, `src/${layer}`)) {
    for (const i of x.imports) {
      const t = target(f, i.spec);
      if (t.startsWith("src/engine/") && !ok.has(t)) out.push(`${f} -> ${i.spec}`);
    }
  }
  return out;
}

/** Allowlist entries no file of the layer imports (the list would quietly allow more than is used). */
export function staleAllowances(
  facts: Facts,
  layer: keyof typeof ENGINE_ALLOWED,
  allowed: readonly string[] = ENGINE_ALLOWED[layer],
): string[] {
  const used = new Set(filesUnder(facts, `src/${layer}`).flatMap(([f, x]) => x.imports.map((i) => target(f, i.spec))));
  return allowed.filter((a) => !facts.has(a) || !used.has(a));
}

/** Value imports from src/spawn that load a zod module (src/engine/graph/schema.ts, the event schemas …), followed transitively. */
export function zodReachedFromSpawn(facts: Facts): string[] {
  const loadsZod = new Map<string, boolean>();
  const visit = (file: string, seen: Set<string>): boolean => {
    const known = loadsZod.get(file);
    if (known !== undefined) return known;
    if (seen.has(file)) return false;
    seen.add(file);
    const x = facts.get(file);
    const result =
      !!x && x.imports.some((i) => !i.typeOnly && (i.spec === "zod" || (i.spec.startsWith(".") && visit(target(file, i.spec), seen))));
    loadsZod.set(file, result);
    return result;
  };
  const out: string[] = [];
  for (const [f, x] of filesUnder(facts, "src/spawn")) {
    for (const i of x.imports) {
      if (i.typeOnly) continue;
      const t = target(f, i.spec);
      if (i.spec === "zod" || (t.startsWith("src/engine/") && visit(t, new Set()))) out.push(`${f} -> ${i.spec} (${i.names.join(", ")})`);
    }
  }
  return out;
}

export function envReadersInSpawn(facts: Facts): string[] {
  return filesUnder(facts, "src/spawn")
    .filter(([f, x]) => f !== ENV_FILE && x.accesses.includes("process.env"))
    .map(([f]) => f);
}

/** The read model (src/read/) loads from src/ only the event union, the text formatters and
 *  itself; from the rest of the engine it takes types alone (ADR 0035). */
export const READ_VALUE_IMPORTS = ["src/engine/events.ts"];

/** Value imports from files under `dir` into src/ that are neither in `allowed` nor under one of `below` (folders). */
export function valueImportsBeyond(facts: Facts, dir: string, allowed: readonly string[], below: readonly string[]): string[] {
  const ok = new Set(allowed);
  const out: string[] = [];
  for (const [f, x] of filesUnder(facts, dir)) {
    for (const i of x.imports) {
      if (i.typeOnly || !i.spec.startsWith(".")) continue;
      const t = target(f, i.spec);
      if (t.startsWith("src/") && !ok.has(t) && !below.some((b) => t.startsWith(`${b}/`))) out.push(`${f} -> ${i.spec}`);
    }
  }
  return out;
}

/** Packages (not relative paths, not node: or bun: built-ins) files under `dir` import. */
export function packagesImported(facts: Facts, dir: string): string[] {
  const out = new Set<string>();
  for (const [, x] of filesUnder(facts, dir))
    for (const i of x.imports) if (!i.spec.startsWith(".") && !/^(node|bun):/.test(i.spec) && i.spec !== "bun") out.add(i.spec);
  return [...out].sort();
}
