// Which output a run gets, and with what colour and width (DESIGN §9, issue 7
// item 4). Pure, so the CLI's choice is tested without a terminal.

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

/** Columns for plain lines: the terminal's, else $COLUMNS, else 80. */
export function outputWidth(columns: number | undefined, env: Record<string, string | undefined>): number {
  if (columns && columns > 0) return columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}
