// Which session an agent attempt continues (ADR 0023), as the engine applies
// it: the choice is made by chooseSession (src/engine/sessions.ts, pure); this
// turns it into the assignment's `session`, the prompt the sitting gets, and
// what node.started says about it.
import type { AgentNode } from "../graph/schema.ts";
import type { AgentAssignment } from "../ports.ts";
import { chooseSession, type SessionMode } from "../sessions.ts";
import { withQuote } from "../verdict/retry.ts";
import type { Attempt } from "./attempts.ts";
import type { AgentSettings } from "./node-settings.ts";
import type { StartedSession } from "./node-env.ts";
import type { NodeEnv } from "./contract.ts";

export type AttemptSession =
  | { kind: "go"; prompt: string; session?: NonNullable<AgentAssignment["session"]>; started?: StartedSession }
  | { kind: "missing"; error: string };

export function nodeSessionAsk(node: AgentNode): { mode: SessionMode; target: string } | undefined {
  if (node.session?.continue !== undefined) return { mode: "resume", target: node.session.continue };
  if (node.session?.fork !== undefined) return { mode: "fork", target: node.session.fork };
  return undefined;
}

/** The session and prompt of attempt `attempt`. `prompt` is the node's rendered prompt;
 *  a retry that resumes its own session gets only the failure (`quote`), since the
 *  session already holds the prompt and everything said since. */
export function attemptSession(
  env: NodeEnv,
  node: AgentNode,
  s: AgentSettings,
  prompt: string,
  attempt: number,
  quote: string | undefined,
  previous: Attempt | undefined,
): AttemptSession {
  const ask = nodeSessionAsk(node);
  const choice = chooseSession({
    self: env.id,
    retryContinues: s.retry?.session === "continue",
    attempt,
    ...(previous?.started ? { previous: { attempt: previous.number ?? attempt - 1, ...sessionOfAttempt(previous) } } : {}),
    ...(ask ? { node: ask, target: env.sessionOf?.(ask.target) } : {}),
  });
  const whole = withQuote(prompt, quote);
  switch (choice.kind) {
    case "none":
      return { kind: "go", prompt: whole };
    case "missing":
      return { kind: "missing", error: choice.error };
    case "fresh":
      return {
        kind: "go",
        prompt: whole,
        started: {
          mode: "fresh",
          node: choice.from.node,
          ...(choice.from.attempt ? { attempt: choice.from.attempt } : {}),
          note: choice.note,
        },
      };
    case "session": {
      const carried = env.run.sessionCosts.get(choice.session.id) ?? choice.session.costUsd;
      const session = { mode: choice.mode, id: choice.session.id, ...(carried !== undefined ? { carriedCostUsd: carried } : {}) };
      const started: StartedSession = {
        mode: choice.mode,
        id: choice.session.id,
        node: choice.from.node,
        ...(choice.from.attempt ? { attempt: choice.from.attempt } : {}),
      };
      return { kind: "go", prompt: choice.quoteOnly && quote !== undefined ? quote : whole, session, started };
    }
  }
}

function sessionOfAttempt(a: Attempt): { sessionId?: string; sessionCostUsd?: number } {
  return {
    ...(a.sessionId !== undefined ? { sessionId: a.sessionId } : {}),
    ...(a.sessionCostUsd !== undefined ? { sessionCostUsd: a.sessionCostUsd } : {}),
  };
}
