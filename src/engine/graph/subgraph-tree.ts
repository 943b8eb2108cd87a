// Loads a graph with every sub-graph it uses (ADR 0024), through a reader port:
// each used file is loaded and validated on its own (its problems name its file
// and line), and the `use` relation is checked from the parent's side — the
// path stays inside the top graph's folder, no cycle, depth at most 8, the
// inputs passed match the inputs declared, no map where maps would nest, a
// planned graph uses only planned ones. Pure apart from the reader.
import { dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import type { GraphProblem } from "../errors.ts";
import { didYouMean } from "./did-you-mean.ts";
import { usedPath } from "./graph-walk.ts";
import type { ChecksReader } from "./checks-library.ts";
import { loadGraph, type Locate } from "./loader.ts";
import type { Path } from "./problem.ts";
import type { GraphFile, SubgraphNode } from "./schema.ts";

/** How deep `use` may nest below the top graph. */
export const MAX_SUBGRAPH_DEPTH = 8;

export type ReadResult = { text: string; digest: string; realPath: string } | { error: string; hint?: string };
export interface GraphReader {
  read(absolutePath: string): ReadResult;
  /** Reads the checks files each graph's checks_from names (ADR 0025); a sub-graph's library is its own. */
  checks?: ChecksReader;
}

export interface UsedFile {
  graph: GraphFile;
  digest: string;
  /** As problems name it: the top file's name as given, joined with each `use`. */
  display: string;
}

export type TreeResult =
  | { graph: GraphFile; problems: []; warnings: GraphProblem[]; files: Map<string, UsedFile> }
  | { graph: null; problems: GraphProblem[] };

interface Loaded {
  graph: GraphFile | null;
  locate?: Locate;
}

interface Use {
  id: string;
  node: SubgraphNode;
  path: Path;
  inBranch: boolean;
}

function usesOf(graph: GraphFile): Use[] {
  const out: Use[] = [];
  for (const [id, node] of Object.entries(graph.nodes)) {
    if (node.kind === "graph") out.push({ id, node, path: ["nodes", id], inBranch: false });
    if (node.kind === "map")
      for (const [bid, b] of Object.entries(node.branch))
        if (b.kind === "graph") out.push({ id: bid, node: b, path: ["nodes", id, "branch", bid], inBranch: true });
  }
  return out;
}

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
};

const hasMap = (g: GraphFile) => Object.values(g.nodes).some((n) => n.kind === "map");
// A merge node runs at the top level only (ADR 0021): in a branch its worktree,
// `into` and upstream branch names would be one for every branch of the map.
const hasMerge = (g: GraphFile) => Object.values(g.nodes).some((n) => n.kind === "merge");

class TreeLoader {
  readonly problems: GraphProblem[] = [];
  readonly warnings: GraphProblem[] = [];
  readonly files = new Map<string, UsedFile>();
  private readonly loaded = new Map<string, Loaded>();
  private readonly reads = new Map<string, ReadResult>();
  private readonly root: string;
  private readonly realRoot: string;

  constructor(
    private readonly reader: GraphReader,
    topPath: string,
    topReal: string,
  ) {
    this.root = dirname(topPath);
    this.realRoot = dirname(topReal);
  }

  /** Loads one file once, however many graphs use it (its own problems are reported once). */
  load(path: string, display: string, text: string, digest: string): Loaded {
    const known = this.loaded.get(path);
    if (known) return known;
    const r = loadGraph(display, text, this.reader.checks ? { readChecks: this.reader.checks } : {});
    const l: Loaded = r.graph ? { graph: r.graph, locate: r.locate } : { graph: null };
    if (r.graph) {
      this.warnings.push(...r.warnings);
      this.files.set(path, { graph: r.graph, digest, display });
    } else this.problems.push(...r.problems);
    this.loaded.set(path, l);
    return l;
  }

  /** Follows every `use` of a loaded file; `chain` is the files from the top to this one. */
  follow(file: Loaded, path: string, display: string, chain: string[], inBranch: boolean): void {
    const graph = file.graph!;
    for (const u of usesOf(graph)) {
      const at = (rel: Path, message: string, hint?: string, where: "value" | "key" = "value") =>
        this.problems.push(
          file.locate!({ path: [...u.path, ...rel], at: where, message: `node "${u.id}": ${message}`, ...(hint ? { hint } : {}) }),
        );
      const use = u.node.use;
      if (isAbsolute(use)) {
        at(
          ["use"],
          `use must be a path relative to this file, not "${use}"`,
          "write it relative to the graph file, like use: ./review.yaml",
        );
        continue;
      }
      const target = usedPath(path, use);
      const shown = normalize(join(dirname(display), use));
      if (!isInside(this.root, target)) {
        at(
          ["use"],
          `use "${use}" leaves the top graph's folder (${this.root})`,
          "keep sub-graphs in the folder of the graph you run, or in a folder inside it",
        );
        continue;
      }
      const loop = [...chain, path];
      const cycleAt = loop.indexOf(target);
      if (cycleAt >= 0) {
        const names = [...loop.slice(cycleAt), target].map((p) => this.displayOf(p) ?? p);
        at(["use"], `use makes a cycle: ${names.join(" → ")}`, "a graph cannot use itself, directly or through other graphs");
        continue;
      }
      if (chain.length + 1 > MAX_SUBGRAPH_DEPTH) {
        at(
          ["use"],
          `use nests sub-graphs ${chain.length + 1} deep; at most ${MAX_SUBGRAPH_DEPTH} are allowed`,
          "flatten the chain: a graph may use several sub-graphs side by side",
        );
        continue;
      }
      const read = this.read(target);
      if ("error" in read) {
        at(["use"], `cannot read sub-graph ${shown}: ${read.error}`, read.hint);
        continue;
      }
      if (!isInside(this.realRoot, read.realPath)) {
        at(
          ["use"],
          `use "${use}" leads (through a link) outside the top graph's folder, to ${read.realPath}`,
          "keep sub-graphs in the folder of the graph you run",
        );
        continue;
      }
      const sub = this.load(target, shown, read.text, read.digest);
      if (!sub.graph) continue; // its own problems are reported in its own file
      this.checkUse(u, sub.graph, graph, shown, at, inBranch || u.inBranch);
      this.follow(sub, target, shown, [...chain, path], inBranch || u.inBranch);
    }
  }

  /** Each file is read once, however many graphs use it. */
  private read(path: string): ReadResult {
    let r = this.reads.get(path);
    if (!r) this.reads.set(path, (r = this.reader.read(path)));
    return r;
  }

  private displayOf(path: string): string | undefined {
    return this.files.get(path)?.display;
  }

  /** What the parent passes against what the sub-graph declares, and the rules of where it sits. */
  private checkUse(
    u: Use,
    sub: GraphFile,
    parent: GraphFile,
    shown: string,
    at: (rel: Path, m: string, h?: string, w?: "value" | "key") => void,
    inBranch: boolean,
  ): void {
    const declared = sub.inputs ?? {};
    const names = Object.keys(declared);
    const passed = u.node.inputs ?? {};
    for (const name of Object.keys(passed)) {
      if (!Object.hasOwn(declared, name))
        at(
          ["inputs", name],
          `sub-graph ${shown} declares no input "${name}"${didYouMean(name, names)}`,
          names.length ? `its inputs: ${names.join(", ")}` : "it declares no inputs",
          "key",
        );
    }
    const missing = names.filter((n) => declared[n]!.required && declared[n]!.default === undefined && !Object.hasOwn(passed, n));
    if (missing.length > 0) {
      at(
        u.node.inputs ? ["inputs"] : ["use"],
        `sub-graph ${shown} needs input${missing.length === 1 ? "" : "s"} ${missing.map((m) => `"${m}"`).join(", ")}, which this node does not pass`,
        `add inputs: { ${missing.map((m) => `${m}: ...`).join(", ")} }`,
        u.node.inputs ? "key" : "value",
      );
    }
    if (inBranch && hasMap(sub))
      at(
        ["use"],
        `sub-graph ${shown} holds a map, and this node is inside a map branch: maps do not nest`,
        "move the sub-graph out of the branch, or its map into the parent",
      );
    if (inBranch && hasMerge(sub))
      at(
        ["use"],
        `sub-graph ${shown} holds a merge node, and this node is inside a map branch: merge nodes run at the top level only`,
        "move the sub-graph out of the branch, or merge after the map (kind: merge, from: the map)",
      );
    if (parent.origin === "planned" && sub.origin !== "planned")
      at(
        ["use"],
        `a planned graph may use only planned sub-graphs; ${shown} is user-written`,
        "a sub-graph a planned graph uses is held to the planned graph's rules",
      );
  }
}

/** The top file (already read) and every file it uses. Problems of a used file name that file. */
export function loadGraphTree(
  display: string,
  path: string,
  top: { text: string; digest: string; realPath: string },
  reader: GraphReader,
): TreeResult {
  const loader = new TreeLoader(reader, path, top.realPath);
  const root = loader.load(path, display, top.text, top.digest);
  if (!root.graph) return { graph: null, problems: loader.problems };
  loader.follow(root, path, display, [], false);
  if (loader.problems.length > 0) return { graph: null, problems: uniqueProblems(loader.problems, display) };
  loader.files.delete(path);
  return { graph: root.graph, problems: [], warnings: loader.warnings, files: loader.files };
}

/** Once each, grouped by file (the top file first) and in line order within a file. */
function uniqueProblems(problems: GraphProblem[], top: string): GraphProblem[] {
  const seen = new Set<string>();
  const fileRank = new Map<string, number>([[top, 0]]);
  for (const p of problems) if (!fileRank.has(p.file)) fileRank.set(p.file, fileRank.size);
  return problems
    .filter((p) => {
      const k = `${p.file}:${p.line}:${p.col}:${p.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => fileRank.get(a.file)! - fileRank.get(b.file)! || a.line - b.line || a.col - b.col);
}
