// The output a session writes to, chosen by the flags and the terminal:
// NDJSON (--json), plain lines (--plain or no TTY), or the live UI.
import type { Approvals } from "../engine/ports.ts";
import { chooseOutput, colorEnabled, outputWidth, type OutputMode } from "../tui/output-choice.ts";
import type { EventOutput } from "../tui/output.ts";
import { createNdjsonOutput } from "../tui/ndjson-output.ts";
import { createPlainOutput } from "../tui/plain-output.ts";
import type { CliIO } from "./io.ts";

export interface SessionOutput {
  mode: OutputMode;
  output: EventOutput;
  /** The live UI's approval queue: a person answers on screen. Absent headless. */
  ask?: Approvals;
  /** The live UI only: after the run, resolves when the person leaves the final frame. */
  held?: () => Promise<void>;
  /** The live UI only: resolves when it is gone (q, Ctrl-C, or closed). */
  gone?: Promise<void>;
}

export interface OutputRequest {
  io: CliIO;
  flags: { json?: boolean; plain?: boolean };
  /** `vouch watch`: the live UI of a run another process drives (q and Ctrl-C leave it). */
  watching?: boolean;
  /** The live UI's Ctrl-C (cancel) and second Ctrl-C (exit now). */
  cancel(): void;
  exitNow(): void;
}

export async function openOutput(r: OutputRequest): Promise<SessionOutput> {
  const { io } = r;
  const mode = chooseOutput(r.flags, io);
  const color = colorEnabled(io);
  if (mode === "json") return { mode, output: createNdjsonOutput(io.out) };
  if (mode === "plain") {
    const width = outputWidth(io.stdoutIsTTY ? io.streams.stdout.columns : undefined, io.env, io.stdoutIsTTY);
    return { mode, output: createPlainOutput(io.out, { color, width }) };
  }
  // Only the live UI loads ink and React (ADR 0001).
  const { startTui } = await import("../tui/app.tsx");
  const tui = startTui({ ...io.streams, color, onCancel: r.cancel, onExitNow: r.exitNow, ...(r.watching ? { watching: true } : {}) });
  return { mode, output: tui, ask: tui.approvals, held: () => tui.held(), gone: tui.done };
}
