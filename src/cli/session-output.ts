// The output a session writes to, chosen by the flags and the terminal:
// NDJSON (--json), plain lines (--plain or no TTY), or the live UI.
import type { Approvals } from "../engine/ports.ts";
import { chooseOutput, colorEnabled, outputWidth, type OutputMode } from "../tui/output-choice.ts";
import type { EventOutput } from "../tui/output.ts";
import { createNdjsonOutput } from "../tui/ndjson-output.ts";
import { createPlainOutput } from "../tui/plain-output.ts";
import { flagApprovals, type Decision } from "./cli-approvals.ts";
import type { CliIO } from "./io.ts";

export interface SessionOutput {
  mode: OutputMode;
  output: EventOutput;
  approvals: Approvals;
  /** The live UI only: after the run, resolves when the person leaves the final frame. */
  held?: () => Promise<void>;
}

export interface OutputRequest {
  io: CliIO;
  flags: { json?: boolean; plain?: boolean };
  /** --approve / --reject of `vouch resume`. */
  decisions?: Map<string, Decision>;
  /** Decisions the ledger already holds (by nodeKey): they answer first, and are final. */
  standing?: Map<string, Decision>;
  /** The live UI's Ctrl-C (cancel) and second Ctrl-C (exit now). */
  cancel(): void;
  exitNow(): void;
}

export async function openOutput(r: OutputRequest): Promise<SessionOutput> {
  const { io } = r;
  const mode = chooseOutput(r.flags, io);
  const color = colorEnabled(io);
  const decisions = r.decisions ?? new Map();
  const standing = r.standing ?? new Map();
  if (mode === "json") return { mode, output: createNdjsonOutput(io.out), approvals: flagApprovals(decisions, undefined, standing) };
  if (mode === "plain") {
    const width = outputWidth(io.stdoutIsTTY ? io.streams.stdout.columns : undefined, io.env, io.stdoutIsTTY);
    return { mode, output: createPlainOutput(io.out, { color, width }), approvals: flagApprovals(decisions, undefined, standing) };
  }
  // Only the live UI loads ink and React (ADR 0001).
  const { startTui } = await import("../tui/app.tsx");
  const tui = startTui({ ...io.streams, color, onCancel: r.cancel, onExitNow: r.exitNow });
  return { mode, output: tui, approvals: flagApprovals(decisions, tui.approvals, standing), held: () => tui.held() };
}
