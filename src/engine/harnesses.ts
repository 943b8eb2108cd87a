// The harnesses the engine knows: their names (a graph's `harness:` values) and
// what each can do with a session id (ADR 0023). The engine's own list, so it
// validates and plans without importing src/spawn; the adapters are registered
// in src/spawn/harness/registry.ts, whose record is typed by these names, and
// test/harness/registry.test.ts holds the two equal (names and session support).
// A new harness is a line here and a folder in src/spawn/harness/ (docs/architecture.md §9).

export const HARNESS_NAMES = ["claude", "codex", "gemini", "acp", "replay", "command"] as const;
export type HarnessName = (typeof HARNESS_NAMES)[number];

/** resume: the sitting goes on in the same session; fork: a new session that starts from its history. */
export type SessionMode = "resume" | "fork";

/** What each harness can do with a session id, as its pinned CLI has it
 *  (docs/real-clis.md): claude `--resume` and `--fork-session`; codex
 *  `exec resume` and `exec fork`; gemini `--resume` only; acp `session/resume`
 *  or `session/load` when the agent offers one (ACP v1 has no fork). replay plays a
 *  recording of any sitting (it accepts and does not apply, like model and
 *  tools); command runs a program that has no sessions. */
export const SESSION_SUPPORT: Readonly<Record<HarnessName, Readonly<Record<SessionMode, boolean>>>> = {
  claude: { resume: true, fork: true },
  codex: { resume: true, fork: true },
  gemini: { resume: true, fork: false },
  acp: { resume: true, fork: false },
  replay: { resume: true, fork: true },
  command: { resume: false, fork: false },
};
