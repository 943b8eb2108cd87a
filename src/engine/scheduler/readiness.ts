// What happens to a node once everything it waits for has finished
// (ADR 0002 "Scheduling"). Pure: the caller supplies the needs' states, whether
// a router passed it over, and a lazy `when`.
import type { Cause, NodeStatus } from "../events.ts";

export interface NeedState {
  status: NodeStatus;
  /** `exhausted:` gave it an output: its dependents run although it did not pass. */
  recovered: boolean;
}

export type Disposition = { run: true } | { run: false; status: "skipped" | "cancelled"; cause: Cause };

export interface ReadinessInput {
  needs: NeedState[];
  /** A router that names this node finished and chose other nodes. */
  notChosen: boolean;
  /** The run (or the map, under fail_fast) is stopping: nothing new starts. */
  stopping: boolean;
  /** Evaluated only when everything before it allows the node to run. */
  when?: () => boolean;
  /** A router: it runs whatever its needs ended as (failed or error included), so that its
   *  routes can read `nodes.X.status` and send a failure somewhere (issue 27 item 15). */
  readsStatus?: boolean;
}

const SINKING: ReadonlySet<NodeStatus> = new Set(["failed", "error", "cancelled"]);
/** What keeps a router from running: work that was stopped, not work that reached an outcome. */
const SINKING_FOR_ROUTERS: ReadonlySet<NodeStatus> = new Set(["cancelled"]);

export function disposition(input: ReadinessInput): Disposition {
  if (input.stopping) return { run: false, status: "cancelled", cause: "cancelled" };
  const { needs } = input;
  if (needs.length > 0 && needs.every((n) => n.status === "skipped")) {
    return { run: false, status: "skipped", cause: "upstream_not_passed" };
  }
  const sinking = input.readsStatus ? SINKING_FOR_ROUTERS : SINKING;
  if (needs.some((n) => sinking.has(n.status) && !n.recovered)) {
    return { run: false, status: "skipped", cause: "upstream_not_passed" };
  }
  if (input.notChosen) return { run: false, status: "skipped", cause: "not_chosen" };
  if (input.when && !input.when()) return { run: false, status: "skipped", cause: "condition_false" };
  return { run: true };
}
