// Reading a graph file from disk for the commands (validate, graph, run,
// resume): the bytes, their digest (resume refuses a changed graph), and the
// loaded graph. The engine's loader is pure; the file system stays here.
import { readdirSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { GraphInvalidError, InputError, type GraphProblem } from "../engine/errors.ts";
import { loadGraph } from "../engine/graph/loader.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { fileLimits, MAX_GRAPH_ENV, readLimited } from "../spawn/read-limited.ts";

export interface GraphSource {
  /** Absolute path of the file. */
  path: string;
  text: string;
  /** sha256 of the file's bytes, hex. */
  digest: string;
}

/** The file's text and digest. Missing, unreadable, not a regular file, over the
 *  size limit (VOUCH_MAX_GRAPH_BYTES) or not UTF-8 → InputError naming the path (exit 2). */
export function readGraphSource(path: string, cwd: string, env: Record<string, string | undefined>): GraphSource {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const maxBytes = fileLimits(env).graphBytes;
  const bytes = readLimited(absolute, { what: `graph file ${path}`, maxBytes, raise: `a graph this large is almost surely not one; to read it anyway, set ${MAX_GRAPH_ENV} (e.g. ${MAX_GRAPH_ENV}=64MiB)` });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`graph file ${path} is not UTF-8 text`);
  }
  const digest = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  return { path: absolute, text, digest };
}

/** Read and load a graph. Problems → GraphInvalidError carrying each `file:line:col` (with `file` as given). */
export function readGraphFile(path: string, cwd: string, env: Record<string, string | undefined>): GraphSource & { graph: GraphFile; warnings: GraphProblem[] } {
  const source = readGraphSource(path, cwd, env);
  const loaded = loadGraph(path, source.text);
  if (!loaded.graph) throw new GraphInvalidError(loaded.problems);
  return { ...source, graph: loaded.graph, warnings: loaded.warnings };
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
