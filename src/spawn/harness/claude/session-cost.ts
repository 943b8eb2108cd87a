// A resumed claude session's cost (ADR 0023): claude's total_cost_usd counts the
// session's earlier sittings, so the parser of a resumed sitting reports its own.
import type { StreamParser } from "../types.ts";

/** A resumed session's cost as claude reports it counts the session's earlier
 *  sittings (total_cost_usd of `--resume` is cumulative; measured with the pinned
 *  claude, docs/real-clis.md): this sitting's own cost is the total less what was
 *  carried in. Never below zero. */
export function ownCost(total: number | null, carried: number | undefined): { costUsd: number | null; sessionCostUsd?: number } {
  if (total === null || carried === undefined || carried <= 0) return { costUsd: total };
  return { costUsd: Math.max(0, total - carried), sessionCostUsd: total };
}

/** A parser whose costs are this sitting's own: live progress and the final
 *  sitting less `carried` (the session's total before it), the reported total
 *  kept as sessionCostUsd. Without a carried cost the parser is returned as is. */
export function carryCost(parser: StreamParser, carried: number | undefined): StreamParser {
  if (carried === undefined || carried <= 0) return parser;
  const own = <T extends { costUsd?: number | null }>(p: T): T =>
    typeof p.costUsd === "number" ? { ...p, costUsd: ownCost(p.costUsd, carried).costUsd } : p;
  return {
    feed: (line) => {
      const p = parser.feed(line);
      return p === null ? null : own(p);
    },
    progress: () => own(parser.progress()),
    ...(parser.reported ? { reported: () => parser.reported!() } : {}),
    finish: (end) => {
      const s = parser.finish(end);
      return { ...s, ...ownCost(s.costUsd, carried) };
    },
  };
}
