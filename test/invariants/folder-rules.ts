// The import rules of docs/architecture.md §2 invariants 8 to 10, for the folders
// the first rules (layer-rules.ts) leave open, as pure functions of the parsed facts
// (ts-facts.ts): what each folder may import, who may import it, where a transport's
// packages may be loaded, and that no import cycle is left. Each returns offenders,
// so the same rule runs on src/ and on a planted tree that breaks it.
import { target, type Facts } from "./layer-rules.ts";

export interface FolderRule {
  /** What the folder's files may import in src/, beside the folder's own files: a file, or a folder ending in "/". */
  may: readonly string[];
  /** Under `may`, what they still may not. */
  not?: readonly string[];
}

/** One folder per executor transport (src/executor/registry.ts names their schemes). */
export const TRANSPORT_FOLDERS: readonly string[] = ["src/executor/redis/"];
/** Folders of src/executor/ that are no transport. */
export const NOT_TRANSPORTS: readonly string[] = ["src/executor/k8s/"];

/** A transport moves jobs and messages; the worker host wires the ports, so no transport holds a copy. */
const TRANSPORT_RULE: FolderRule = { may: ["src/engine/", "src/executor/"], not: ["src/engine/run/"] };

/** Every folder under a rule; a file keeps the rule of each folder it is in. */
export const FOLDER_RULES: Record<string, FolderRule> = {
  // Pure engine pieces: the run loop (run/) drives them, never the other way round. src/text/ is
  // below every layer (ADR 0035): graph-language durations are written by src/text/duration.ts.
  "src/engine/graph/": { may: ["src/engine/", "src/text/"], not: ["src/engine/run/"] },
  "src/engine/verdict/": { may: ["src/engine/", "src/text/"], not: ["src/engine/run/"] },
  "src/engine/scheduler/": { may: ["src/engine/", "src/text/"], not: ["src/engine/run/"] },
  "src/engine/workspace/": { may: ["src/engine/", "src/text/"], not: ["src/engine/run/"] },
  "src/engine/template/": { may: ["src/engine/", "src/text/"], not: ["src/engine/run/"] },
  // The real GitPort: the engine's port types and errors, git run through the process seam; no harness, no run loop.
  "src/workspace/": { may: ["src/engine/", "src/spawn/"], not: ["src/engine/run/", "src/spawn/harness/"] },
  // Sealing (ADR 0040): the engine's types and the process seam; no harness (harnesses declare, the runner confines).
  "src/spawn/sandbox/": { may: ["src/engine/", "src/spawn/"], not: ["src/engine/run/", "src/spawn/harness/"] },
  // The worker host runs branches with the engine's own code, real processes and real git; no outputs, no ledger.
  "src/executor/": { may: ["src/engine/", "src/spawn/", "src/workspace/"] },
  ...Object.fromEntries(TRANSPORT_FOLDERS.map((f) => [f, TRANSPORT_RULE])),
  // The composition root may build anything, but reaches an executor only through its registry.
  "src/cli/": { may: ["src/"], not: TRANSPORT_FOLDERS },
  // Traces are made from the event union alone (ADR 0059): no run loop, ledger, output or process.
  "src/telemetry/": { may: ["src/engine/events.ts", "src/engine/ports.ts", "src/text/", "src/read/node-path.ts"] },
};

/** Folders only the named files and folders may import (beside their own files). */
export const IMPORTED_ONLY_BY: Record<string, readonly string[]> = {
  "src/cli/": ["src/cli.ts"],
  "src/executor/": ["src/cli/"],
  "src/workspace/": ["src/cli/", "src/executor/"],
  "src/telemetry/": ["src/cli/"],
};

/** Packages a transport brings, loaded (or typed) only inside its folder; and OpenTelemetry's,
 *  only in the one file that is loaded when a run exports traces (ADR 0059). */
export const TRANSPORT_PACKAGES: Record<string, string> = {
  bullmq: "src/executor/redis/",
  ioredis: "src/executor/redis/",
  "@opentelemetry/api": "src/telemetry/otlp-export.ts",
  "@opentelemetry/sdk-trace": "src/telemetry/otlp-export.ts",
  "@opentelemetry/exporter-trace-otlp-http": "src/telemetry/otlp-export.ts",
  "@opentelemetry/resources": "src/telemetry/otlp-export.ts",
};

/** Packages one folder keeps to itself, by import prefix: the MCP SDK serves `vouch mcp serve` only (ADR 0065). */
export const FOLDER_PACKAGES: Record<string, string> = {
  "@modelcontextprotocol/sdk": "src/cli/mcp/",
};

/** "file -> import" for each import of a FOLDER_PACKAGES package outside its folder. */
export function strayFolderPackages(facts: Facts, packages: Record<string, string> = FOLDER_PACKAGES): string[] {
  const out: string[] = [];
  for (const [file, x] of facts)
    for (const i of x.imports)
      for (const [pkg, home] of Object.entries(packages))
        if ((i.spec === pkg || i.spec.startsWith(`${pkg}/`)) && !file.startsWith(home)) out.push(`${file} -> ${i.spec}`);
  return sorted(out);
}

/**
 * Imports that break a folder rule today and are being removed on parallel branches
 * (issue 25): each entry must still be found (a stale one fails). None is left: the
 * read model (ADR 0035) moved the --report wiring to src/cli/run-reports.ts, so
 * src/report/ no longer imports src/cli/io.ts, and the engine's untie (ADR 0036)
 * took graph/ and workspace/ off run/.
 */
export const KNOWN_BREACHES: readonly string[] = [];

const within = (path: string, entry: string) => (entry.endsWith("/") ? path.startsWith(entry) : path === entry);
const sorted = (xs: string[]) => [...new Set(xs)].sort();

/** Every import of a source file to another file of src/, resolved, with whether only types cross. */
export function sourceEdges(facts: Facts): { from: string; to: string; typeOnly: boolean }[] {
  const out: { from: string; to: string; typeOnly: boolean }[] = [];
  for (const [from, x] of facts)
    for (const i of x.imports) {
      const to = target(from, i.spec);
      if (i.spec.startsWith(".") && to.startsWith("src/")) out.push({ from, to, typeOnly: i.typeOnly });
    }
  return out;
}

/** "file -> target" for each import a folder rule forbids. */
export function folderBreaches(facts: Facts, rules: Record<string, FolderRule> = FOLDER_RULES): string[] {
  const out: string[] = [];
  for (const { from, to } of sourceEdges(facts))
    for (const [folder, rule] of Object.entries(rules)) {
      if (!from.startsWith(folder) || to.startsWith(folder)) continue;
      const allowed = rule.may.some((m) => within(to, m)) && !(rule.not ?? []).some((n) => within(to, n));
      if (!allowed) out.push(`${from} -> ${to}`);
    }
  return sorted(out);
}

/** "file -> target" for each import of a folder from outside the files allowed to. */
export function unwantedImporters(facts: Facts, rules: Record<string, readonly string[]> = IMPORTED_ONLY_BY): string[] {
  const out: string[] = [];
  for (const { from, to } of sourceEdges(facts))
    for (const [folder, importers] of Object.entries(rules))
      if (to.startsWith(folder) && !from.startsWith(folder) && !importers.some((i) => within(from, i))) out.push(`${from} -> ${to}`);
  return sorted(out);
}

/** Folders of src/executor/ that are neither a listed transport nor a listed non-transport. */
export function unlistedExecutorFolders(files: Iterable<string>): string[] {
  const folders = [...files].flatMap((f) => /^(src\/executor\/[^/]+\/)/.exec(f)?.[1] ?? []);
  return sorted(folders.filter((d) => !TRANSPORT_FOLDERS.includes(d) && !NOT_TRANSPORTS.includes(d)));
}

/** "file -> package" for each import of a transport's package outside its folder. */
export function strayTransportPackages(facts: Facts, packages: Record<string, string> = TRANSPORT_PACKAGES): string[] {
  const out: string[] = [];
  for (const [file, x] of facts)
    for (const i of x.imports) {
      const home = Object.hasOwn(packages, i.spec) ? packages[i.spec]! : undefined;
      if (home !== undefined && !file.startsWith(home)) out.push(`${file} -> ${i.spec}`);
    }
  return sorted(out);
}

/** What a rule found beyond the known breaches, and the known breaches it no longer finds. */
export function againstKnown(found: readonly string[], known: readonly string[]): { unlisted: string[]; stale: string[] } {
  return { unlisted: found.filter((f) => !known.includes(f)), stale: known.filter((k) => !found.includes(k)) };
}
