// What the replay harness declares. It runs no program (play.ts plays a
// recorded Claude Code sitting in process): wall and idle are supervised by
// timers; turns and cost are what the recording says (observed). It accepts
// model/tools/permission_mode (a recording of any setting can be played) but,
// like every cap it observes, it only reports what was recorded.
import { SESSION_SUPPORT } from "../../../engine/harnesses.ts";
import { CLAUDE_READ_ONLY, CLAUDE_STARTER } from "../claude/adapter.ts";
import type { Guarantees, HarnessDescriptor } from "../types.ts";

export const REPLAY_GUARANTEES: Guarantees = {
  caps: { turns: "observed", budget_usd: "observed", wall: "supervised", idle: "supervised" },
  model: true,
  tools: true,
  permissionMode: true,
};

export const replayDescriptor: HarnessDescriptor = {
  name: "replay",
  starter: { ...CLAUDE_STARTER, comment: "plays recorded sittings from vouch.graph.replay/ (demos and tests; claude for real work)" },
  binary: null,
  protocol: "json-stream",
  guarantees: REPLAY_GUARANTEES,
  recorded: true,
  // A recording of a resumed sitting plays like any other: accepted, not applied (ADR 0023).
  sessions: SESSION_SUPPORT.replay,
  // It plays claude recordings: the same read-only settings, so the planner's demo shows them.
  readOnly: CLAUDE_READ_ONLY,
  noProgram: "built in: plays recorded fixtures (--replay-dir)",
};
