// One rule for what a node cost, used by the live view (src/tui) and by `vouch
// show`, `vouch runs` and the reports (src/ledger): before it, the two disagreed
// on a node of unknown final cost, on a node run again in a later session, and
// on a retried node a usage limit then held (test/read/node-cost.test.ts).
import { NODE_STATUSES, type NodeStatus } from "../engine/events.ts";
import type { AttemptFacts } from "./views.ts";

type CostFacts = Pick<AttemptFacts<string | null>, "session" | "round" | "status" | "cost_usd" | "finished_at">;

const FINAL: ReadonlySet<string> = new Set<NodeStatus>(NODE_STATUSES);

/** The attempt its node.finished closed: ended with a verdict status (a retried attempt has a
 *  status but no end; one a usage limit cut off has an end but no status). */
function closed(a: CostFacts): boolean {
  return a.finished_at !== null && a.status !== null && FINAL.has(a.status);
}

/** What a node cost over every session and feedback round: a round its node.finished closed
 *  costs that event's cost_usd (its attempts summed by the engine); a round that never
 *  finished costs what its attempts spent. Null when nothing ran, or when a closed round's
 *  cost is unknown (a partial sum would look complete). */
export function nodeCost(attempts: readonly CostFacts[]): number | null {
  if (attempts.length === 0) return null;
  const rounds = new Map<string, CostFacts[]>();
  for (const a of attempts) {
    const key = `${a.session}\u0000${a.round}`;
    const list = rounds.get(key);
    if (list) list.push(a);
    else rounds.set(key, [a]);
  }
  let total = 0;
  for (const group of rounds.values()) {
    const done = group.filter(closed).at(-1);
    if (done) {
      if (done.cost_usd === null) return null;
      total += done.cost_usd;
    } else total += group.reduce((sum, a) => sum + (a.cost_usd ?? 0), 0);
  }
  return total;
}

/** The attempts of the node's latest session and round (what its row and details show). */
export function currentAttempts<A extends Pick<AttemptFacts<string | null>, "session" | "round">>(attempts: readonly A[]): A[] {
  const last = attempts.at(-1);
  return last ? attempts.filter((a) => a.session === last.session && a.round === last.round) : [];
}
