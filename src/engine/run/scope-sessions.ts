// The sessions a scope's agent nodes leave for nodes that continue or fork
// them (ADR 0023): noted in the run's book by node key, read by key, and — for
// a map branch — dropped when the branch completes, since only its own nodes
// read them (10,000 branches keep nothing behind, issue 20).
import { nodeKey, type BranchRef } from "../events.ts";
import type { FinishedSession } from "./contract.ts";
import type { RunContext } from "./context.ts";

export class ScopeSessions {
  /** The keys a branch scope noted, dropped when it completes. */
  private readonly noted = new Set<string>();

  constructor(
    private readonly ctx: Pick<RunContext, "sessions" | "sessionCosts">,
    /** A node id as events know it ("review/x" inside sub-graph review). */
    private readonly key: (id: string) => string,
    private readonly branch: BranchRef | undefined,
    /** The branch of the scope around (the frame's), for nodes outside a map branch. */
    private readonly outerBranch: BranchRef | undefined,
    /** A map branch's scope: its notes go when it completes. */
    private readonly ownOnly: boolean,
  ) {}

  /** A finished agent node's last session, for nodes that continue it. */
  note(id: string, f: FinishedSession): void {
    const key = nodeKey(this.key(id), this.branch);
    this.ctx.sessions.set(key, f);
    if (this.ownOnly) this.noted.add(key);
    if (f.sessionId !== null && f.sessionCostUsd !== undefined && !this.ctx.sessionCosts.has(f.sessionId))
      this.ctx.sessionCosts.set(f.sessionId, f.sessionCostUsd);
  }

  /** A node of this scope (this branch's own), else the scope around the map (the validator allows
   *  only those): a map branch shares its parent's frame, so the outer key has the frame's branch. */
  of(id: string, inScope: boolean): FinishedSession | undefined {
    return this.ctx.sessions.get(inScope ? nodeKey(this.key(id), this.branch) : nodeKey(this.key(id), this.outerBranch));
  }

  /** The scope completed: a branch keeps nothing in the run's context. */
  drop(): void {
    for (const key of this.noted) this.ctx.sessions.delete(key);
  }
}
