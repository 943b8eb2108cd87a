// What `vouch init` will write, decided before anything is written: the two
// texts, built from what was detected, and then loaded by vouch's own loader
// (the checks file, the graph with that checks file as its checks_from, and the
// git rules vouch validate applies). A text vouch itself would refuse is never
// written: that would be a bug in vouch init, said as one.
import { join } from "node:path";
import { VouchError, formatProblem, type GraphProblem } from "../../engine/errors.ts";
import { loadChecksFile } from "../../engine/graph/checks-file.ts";
import { locateProblems, loadGraph } from "../../engine/graph/loader.ts";
import type { GitPort, HarnessName } from "../../engine/ports.ts";
import { checkWorkspaces } from "../workspace-check.ts";
import { CHECKS_FILE, PLACEHOLDER, checksText } from "./checks-text.ts";
import type { Finding, ProtectedPath } from "./detected.ts";
import { GRAPH_FILE, graphText } from "./graph-text.ts";
import { nameChecks, type NamedCheck } from "./names.ts";

export interface WritePlan {
  checks: NamedCheck[];
  files: { name: string; path: string; text: string }[];
}

/** A text vouch init made that vouch refuses: a bug, reported with every problem (exit 3). */
export class InitBugError extends VouchError {
  override readonly name = "InitBugError";
  readonly exitCode = 3 as const;
  constructor(problems: readonly GraphProblem[]) {
    super(
      `vouch init made a file vouch refuses:\n${problems.map(formatProblem).join("")}`.trimEnd(),
      "this is a bug in vouch init; please report it with the output above",
    );
  }
}

/** A path of the repository as a glob that matches only it: [, * and ? as one-character classes. */
export function literalGlob(path: string): string {
  return path.replace(/[[*?]/g, (c) => `[${c}]`);
}

/** The protected paths, relative to the repository root (init may run in a folder of it). */
function protectedPaths(finding: Finding, repoPrefix: string, withOwn = true): ProtectedPath[] {
  const own: ProtectedPath[] = withOwn
    ? [
        { glob: CHECKS_FILE, why: "the checks themselves" },
        { glob: GRAPH_FILE, why: "this file" },
      ]
    : [];
  const prefix = literalGlob(repoPrefix);
  return [...finding.protect, ...own].map((p) => ({ ...p, glob: `${prefix}${p.glob}` }));
}

/** The graph's name: the folder's, in letters, digits, - and _. */
export function graphName(folder: string): string {
  const base = folder
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${base || "project"}-implement`;
}

export interface PlanSpec {
  root: string;
  /** The folder's path in its repository, "" or ending in "/" (git rev-parse --show-prefix). */
  repoPrefix: string;
  folderName: string;
  harness: HarnessName;
}

export function writePlan(finding: Finding, spec: PlanSpec): WritePlan {
  const named = nameChecks(finding.checks);
  const checks = named.length > 0 ? named : [PLACEHOLDER];
  const graph = graphText({
    name: graphName(spec.folderName),
    harness: spec.harness,
    checks: checks.map((c) => c.name),
    protect: protectedPaths(finding, spec.repoPrefix),
    checksFile: CHECKS_FILE,
  });
  return {
    checks,
    files: [
      {
        name: CHECKS_FILE,
        path: join(spec.root, CHECKS_FILE),
        text: checksText(finding, checks, protectedPaths(finding, spec.repoPrefix, false)),
      },
      { name: GRAPH_FILE, path: join(spec.root, GRAPH_FILE), text: graph },
    ],
  };
}

/** Loads both texts as vouch validate would (the checks file through the graph's checks_from). */
export async function refuseInvalid(plan: WritePlan, root: string, git: GitPort): Promise<void> {
  const [checks, graph] = plan.files as [WritePlan["files"][0], WritePlan["files"][0]];
  const checksProblems = loadChecksFile(checks.path, checks.text).problems;
  if (checksProblems.length > 0) throw new InitBugError(checksProblems);
  const loaded = loadGraph(graph.path, graph.text, {
    readChecks: (p) => (p === checks.path ? { text: checks.text } : { error: "vouch init writes one checks file" }),
  });
  if (!loaded.graph) throw new InitBugError(loaded.problems);
  const problems = [
    ...loaded.warnings,
    ...locateProblems(graph.path, graph.text, (await checkWorkspaces(loaded.graph, root, git)).problems),
  ];
  if (problems.length > 0) throw new InitBugError(problems);
}
