// The command-line words that make a sitting continue a session (ADR 0023),
// per CLI, as the pinned versions take them (docs/real-clis.md):
//   claude  --resume=<id> [--fork-session]
//   codex   exec … resume -- <id> -   |   exec … fork -- <id> -
//   gemini  --resume=<id>              (no fork in gemini 0.61.0)
// The id is checked again here (the engine already did): one that could be
// read as a flag, or that carries an escape sequence, never reaches argv.
import { SpawnError } from "../../engine/errors.ts";
import type { AgentAssignment } from "../../engine/ports.ts";
import { usableSessionId } from "../../engine/sessions.ts";
import type { StreamParser } from "./types.ts";

type Session = NonNullable<AgentAssignment["session"]>;

function checkedId(s: Session, harness: string): string {
  const id: string = s.id;
  if (!usableSessionId(id)) {
    throw new SpawnError(
      `${harness}: refusing to ${s.mode} session ${JSON.stringify(String(id).slice(0, 60))}: not a session id`,
      "a session id holds only letters, digits, - and _, and does not start with -",
    );
  }
  return s.id;
}

export function claudeSessionArgs(s: Session | undefined): string[] {
  if (!s) return [];
  // The `=` form: commander reads the value whatever it looks like.
  const args = [`--resume=${checkedId(s, "claude")}`];
  if (s.mode === "fork") args.push("--fork-session");
  return args;
}

/** The subcommand and its id, placed after exec's own options and before the prompt's "-". */
export function codexSessionArgs(s: Session | undefined): string[] {
  if (!s) return [];
  // `--` ends option parsing: the id is a positional whatever it looks like.
  return [s.mode === "fork" ? "fork" : "resume", "--", checkedId(s, "codex")];
}

export function geminiSessionArgs(s: Session | undefined): string[] {
  if (!s) return [];
  if (s.mode === "fork")
    throw new SpawnError("gemini cannot fork a session", "use session: { continue: NODE }, or a harness that forks (claude, codex)");
  return [`--resume=${checkedId(s, "gemini")}`];
}

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
