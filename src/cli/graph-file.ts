// Reading a graph file from disk for the commands (validate, graph, run,
// resume): the bytes, their digest (resume refuses a changed graph), and the
// loaded graph. The engine's loader is pure; the file system stays here.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { GraphInvalidError, InputError, type GraphProblem } from "../engine/errors.ts";
import type { ChecksReader } from "../engine/graph/checks-library.ts";
import { loadGraphTree, type GraphReader, type TreeResult } from "../engine/graph/subgraph-tree.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { fileLimits, MAX_GRAPH_ENV, readLimited } from "../spawn/read-limited.ts";
import { noteInput } from "./jit-policy.ts";

export interface GraphSource {
  /** Absolute path of the file. */
  path: string;
  text: string;
  /** sha256 of the file's bytes, hex. */
  digest: string;
}

/** The file's text and digest. Missing, unreadable, not a regular file, over the
 *  size limit (VOUCH_MAX_GRAPH_BYTES) or not UTF-8 → InputError naming the path (exit 2). */
export function readGraphSource(path: string, cwd: string, env: Record<string, string | undefined>, what = "graph file"): GraphSource {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const maxBytes = fileLimits(env).graphBytes;
  const bytes = readLimited(absolute, {
    what: `${what} ${path}`,
    maxBytes,
    raise: `a file this large is almost surely not one; to read it anyway, set ${MAX_GRAPH_ENV} (e.g. ${MAX_GRAPH_ENV}=64MiB)`,
  });
  noteInput(bytes.length); // a big graph is parsed with the JIT's normal policy (ADR 0031)
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${what} ${path} is not UTF-8 text`);
  }
  return { path: absolute, text, digest: sha256(bytes) };
}

export function sha256(data: Uint8Array | string): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

/** Reads checks files (checks_from, ADR 0025) as graphs are read: regular files, bounded, UTF-8;
 *  each digest read is added to `digests`, in the order the loader asks. */
export function checksReader(cwd: string, env: Record<string, string | undefined>, digests: string[] = []): ChecksReader {
  return (file) => {
    try {
      const checks = readGraphSource(file, cwd, env, "checks file");
      digests.push(checks.digest); // the entries themselves are in the graph text
      return { text: checks.text };
    } catch (e) {
      if (e instanceof InputError) return { error: e.message, ...(e.hint !== undefined ? { hint: e.hint } : {}) };
      throw e;
    }
  };
}

export interface GraphTree extends GraphSource {
  graph: GraphFile;
  warnings: GraphProblem[];
  /** Every sub-graph used (directly or through others), by absolute path (ADR 0024). */
  subgraphs: Map<string, GraphFile>;
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Sub-graph files are read as the top one is: regular files, bounded, UTF-8; checks files too. */
function reader(cwd: string, env: Record<string, string | undefined>, checksDigests: string[]): GraphReader {
  return {
    checks: checksReader(cwd, env, checksDigests),
    read(path) {
      try {
        const s = readGraphSource(path, cwd, env);
        return { text: s.text, digest: s.digest, realPath: realOf(path) };
      } catch (e) {
        if (e instanceof InputError)
          return { error: e.message.replace(`graph file ${path}`, "the file"), ...(e.hint !== undefined ? { hint: e.hint } : {}) };
        throw e;
      }
    },
  };
}

/** The top file and every file it uses, loaded and checked (problems name their own file). */
export function loadGraphSources(
  path: string,
  cwd: string,
  env: Record<string, string | undefined>,
): { source: GraphSource; tree: TreeResult; checksDigests: string[] } {
  const source = readGraphSource(path, cwd, env);
  const checksDigests: string[] = [];
  return {
    source,
    tree: loadGraphTree(
      path,
      source.path,
      { text: source.text, digest: source.digest, realPath: realOf(source.path) },
      reader(cwd, env, checksDigests),
    ),
    checksDigests,
  };
}

/** Read and load a graph and its sub-graphs. Problems → GraphInvalidError carrying each `file:line:col`.
 *  The digest covers every file: resume refuses a run whose sub-graph changed, as it does the top file. */
export function readGraphFile(path: string, cwd: string, env: Record<string, string | undefined>): GraphTree {
  const { source, tree, checksDigests } = loadGraphSources(path, cwd, env);
  if (!tree.graph) throw new GraphInvalidError(tree.problems);
  const subgraphs = new Map([...tree.files].map(([p, f]) => [p, f.graph]));
  const files = tree.files.size === 0 ? source.digest : treeDigest(source, tree.files);
  // Checks files too (ADR 0025): a graph that names none keeps the digest it had.
  const digest = checksDigests.length === 0 ? files : sha256([files, ...checksDigests].join("\n"));
  return { ...source, digest, graph: tree.graph, warnings: tree.warnings, subgraphs };
}

/** With sub-graphs: sha256 over the top file's digest and each used file's (by path relative to the top file's folder). */
function treeDigest(source: GraphSource, files: Map<string, { digest: string }>): string {
  const dir = resolve(source.path, "..");
  const lines = [...files].map(([p, f]) => `${relative(dir, p)}\0${f.digest}`).sort();
  return new Bun.CryptoHasher("sha256").update([source.digest, ...lines].join("\n")).digest("hex");
}

/** The graph files an argument names: the file itself, or the *.yaml / *.yml files of a directory (sorted). */
export function graphFilesIn(path: string, cwd: string): string[] {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  let isDir = false;
  try {
    isDir = statSync(absolute).isDirectory();
  } catch {
    return [path]; // reading it will report what is wrong
  }
  if (!isDir) return [path];
  return readdirSync(absolute)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(path, f));
}

/** A checks file by its name (NAME.checks.yaml / .yml): `vouch validate` and `vouch checks` read it as a library, not a graph. */
export function isChecksFile(path: string): boolean {
  return /\.checks\.ya?ml$/.test(path);
}
