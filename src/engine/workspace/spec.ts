// A node's workspace once defaults are applied (ADR 0020). Agent nodes inherit
// `defaults.workspace` field by field; script nodes take only their own (a
// script is often a setup or report step that must see the user's folder, and a
// worktree per script would surprise). `from` continues an upstream worktree, so
// it takes nothing of the defaults' mode and base.
import type { AnyNode } from "../graph/graph-index.ts";
import type { GraphFile, KEEP_POLICIES } from "../graph/schema.ts";

export type KeepPolicy = (typeof KEEP_POLICIES)[number];
export const DEFAULT_BASE = "HEAD";
export const DEFAULT_KEEP: KeepPolicy = "on_failure";
/** The git-ignored folders of the checkout a check's tree sees read-only (ADR 0043). */
export const DEFAULT_DEPS: readonly string[] = ["**/node_modules", "**/.venv", "**/venv"];

export interface ResolvedWorkspace {
  /** The ref the worktree starts from; for `from`, the upstream's (its last commit is the start). */
  base: string;
  protect: string[];
  keep: KeepPolicy;
  /** Globs of the checkout's git-ignored folders its checks see read-only (absent: DEFAULT_DEPS). */
  deps?: readonly string[];
  from?: string;
}

/** The node's worktree settings, or null when it works in the shared folder. */
export function workspaceOf(graph: GraphFile, node: AnyNode): ResolvedWorkspace | null {
  if (node.kind !== "agent" && node.kind !== "script") return null;
  const own = node.workspace;
  const d = node.kind === "agent" ? graph.defaults?.workspace : undefined;
  if (own?.from !== undefined) {
    return withDeps(
      { base: DEFAULT_BASE, protect: own.protect ?? d?.protect ?? [], keep: own.keep ?? d?.keep ?? DEFAULT_KEEP, from: own.from },
      own.deps ?? d?.deps,
    );
  }
  const mode = own?.mode ?? d?.mode ?? "shared";
  if (mode !== "worktree") return null;
  return withDeps(
    { base: own?.base ?? d?.base ?? DEFAULT_BASE, protect: own?.protect ?? d?.protect ?? [], keep: own?.keep ?? d?.keep ?? DEFAULT_KEEP },
    own?.deps ?? d?.deps,
  );
}

/** `deps` only where the graph says it (absent: DEFAULT_DEPS, decided where the checks run). */
function withDeps(ws: ResolvedWorkspace, deps: readonly string[] | undefined): ResolvedWorkspace {
  return deps === undefined ? ws : { ...ws, deps };
}
