// The workspace rules that need git (ADR 0020), checked before a run starts and
// by `vouch validate`: a node in mode worktree whose cwd is not in a git
// repository, and a base that names no commit, are refused with file:line:col
// (exit 2). A repository with uncommitted changes gets one warning: a worktree
// from HEAD does not contain them.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { GraphInvalidError, type GraphProblem } from "../engine/errors.ts";
import { graphOrder } from "../engine/graph/validate.ts";
import { locateProblems } from "../engine/graph/loader.ts";
import type { Path, PathProblem } from "../engine/graph/problem.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import type { GitPort } from "../engine/ports.ts";
import { workspaceOf } from "../engine/workspace/spec.ts";
import { checkMerges } from "./merge-check.ts";

interface Need {
  /** Where the node's setting is written (its own workspace, or defaults.workspace). */
  modeAt: Path;
  baseAt: Path;
  dir: string;
  base: string;
}

/** Every worktree node with a static cwd (a templated one is checked when the node starts). */
function needs(graph: GraphFile, baseDir: string): Need[] {
  const out: Need[] = [];
  for (const { id, node, map } of graphOrder(graph)) {
    const spec = workspaceOf(graph, node);
    if (spec === null || spec.from !== undefined || (node.kind !== "agent" && node.kind !== "script")) continue;
    const cwd = node.cwd ?? graph.defaults?.cwd ?? ".";
    if (cwd.includes("{{")) continue;
    const at: Path = map !== undefined ? ["nodes", map, "branch", id] : ["nodes", id];
    const own = node.workspace;
    const modeAt: Path =
      own?.mode !== undefined
        ? [...at, "workspace", "mode"]
        : graph.defaults?.workspace?.mode !== undefined
          ? ["defaults", "workspace", "mode"]
          : [...at, "workspace"];
    const baseAt: Path =
      own?.base !== undefined
        ? [...at, "workspace", "base"]
        : graph.defaults?.workspace?.base !== undefined
          ? ["defaults", "workspace", "base"]
          : modeAt;
    out.push({ modeAt, baseAt, dir: resolve(baseDir, cwd), base: spec.base });
  }
  return out;
}

export interface WorkspaceCheck {
  problems: PathProblem[];
  /** One line per repository with uncommitted changes a worktree will not have. */
  warnings: string[];
}

/** @param runId the run being resumed (its own merge branches are its to rename) */
export async function checkWorkspaces(graph: GraphFile, baseDir: string, git: GitPort, runId?: string): Promise<WorkspaceCheck> {
  const problems: PathProblem[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const report = (p: PathProblem) => {
    const k = `${p.path.join("\0")}\0${p.message}`;
    if (!seen.has(k)) problems.push(p);
    seen.add(k);
  };
  const dirty = new Set<string>();
  for (const n of needs(graph, baseDir)) {
    if (!existsSync(n.dir)) {
      report({
        path: n.modeAt,
        message: `workspace mode worktree: the node's folder ${n.dir} does not exist`,
        hint: "set cwd to a folder of a git repository",
      });
      continue;
    }
    const root = await git.repoRoot(n.dir);
    if (root === null) {
      report({
        path: n.modeAt,
        message: `workspace mode worktree needs a git repository, and ${n.dir} is not in one`,
        hint: "run vouch inside a git repository, set cwd to a folder of one, or use mode: shared",
      });
      continue;
    }
    if ((await git.resolveCommit(root, n.base)) === null) {
      report({
        path: n.baseAt,
        message: `workspace base "${n.base}" names no commit in ${root}`,
        hint:
          n.base === "HEAD"
            ? "the repository has no commit yet: commit something first"
            : "name a branch, tag or commit of that repository",
      });
      continue;
    }
    if (n.base === "HEAD" && !dirty.has(root) && (await git.hasUncommittedChanges(root))) {
      dirty.add(root);
      warnings.push(
        `vouch: warning: ${root} has uncommitted changes; worktrees start from HEAD and will not contain them (commit them first, or set workspace.base)\n`,
      );
    }
  }
  for (const p of await checkMerges(graph, baseDir, git, runId)) report(p);
  return { problems, warnings };
}

/** The check as `vouch run` and `vouch resume` use it: problems refuse the run (exit 2), warnings go to stderr. */
export async function refuseBadWorkspaces(
  file: string,
  text: string,
  graph: GraphFile,
  baseDir: string,
  git: GitPort,
  err: (text: string) => void,
  runId?: string,
): Promise<void> {
  const { problems, warnings } = await checkWorkspaces(graph, baseDir, git, runId);
  const located: GraphProblem[] = locateProblems(file, text, problems);
  if (located.length > 0) throw new GraphInvalidError(located);
  for (const w of warnings) err(w);
}
