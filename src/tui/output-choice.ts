// Which output a run gets, and with what colour and width (docs/architecture.md §10,
// ADR 0007). Pure, so the CLI's choice is tested without a terminal.

export type OutputMode = "json" | "plain" | "tui";

export interface OutputFlags {
  json?: boolean;
  plain?: boolean;
}

export interface Terminal {
  stdoutIsTTY: boolean;
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
}

/** --json wins; then --plain; the live UI needs a terminal on both ends (keys in, frames out). */
export function chooseOutput(flags: OutputFlags, term: Terminal): OutputMode {
  if (flags.json) return "json";
  if (flags.plain || !term.stdoutIsTTY || !term.stdinIsTTY) return "plain";
  if (term.env.TERM === "dumb") return "plain";
  return "tui";
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything non-empty (no-color.org). */
export function colorEnabled(term: Pick<Terminal, "stdoutIsTTY" | "env">): boolean {
  if (term.env.NO_COLOR !== undefined && term.env.NO_COLOR !== "") return false;
  if (term.env.TERM === "dumb") return false;
  return term.stdoutIsTTY;
}

/** Lines written to a pipe or a file (CI logs) have no terminal to fit: they are cut
 *  only at this length, so an error message is never lost to an 80-column guess. */
export const PIPE_WIDTH = 4000;

/** Columns for plain lines: the terminal's, else $COLUMNS, else 80 on a terminal
 *  and PIPE_WIDTH when stdout is not one. */
export function outputWidth(columns: number | undefined, env: Record<string, string | undefined>, isTTY = true): number {
  if (columns && columns > 0) return columns;
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return isTTY ? 80 : PIPE_WIDTH;
}
