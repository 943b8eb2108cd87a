// `vouch show RUN [--json | --tui]`: one run from the ledger (docs/architecture.md §8, §10).
// RUN is a run id, a unique prefix of one, or `last`. --tui replays the run's
// recorded events into the live view (ADR 0009); q or Ctrl-C leaves it.
import { UsageError } from "../engine/errors.ts";
import type { VouchEvent } from "../engine/events.ts";
import { renderShow } from "../ledger/render-show.ts";
import { colorEnabled } from "../tui/output-choice.ts";
import { sanitize } from "../text/sanitize.ts";
import { parseCommandArgs } from "./args.ts";
import { oneRun, openRecorded } from "./recorded-ledger.ts";
import { attachTranscripts, renderTranscripts, transcriptPaths } from "./show-transcripts.ts";
import type { CliIO, Command } from "./io.ts";
import { printDiff } from "./show-diff.ts";

function checkTerminal(io: CliIO, json: boolean): void {
  if (json) throw new UsageError("--json and --tui exclude each other");
  if (!io.stdoutIsTTY || !io.stdinIsTTY) {
    const which =
      !io.stdoutIsTTY && !io.stdinIsTTY
        ? "stdin and stdout are not terminals"
        : !io.stdoutIsTTY
          ? "stdout is not a terminal"
          : "stdin is not a terminal";
    throw new UsageError(
      `show --tui needs a terminal to draw in and read keys from (${which})`,
      "use vouch show RUN for text, or vouch show RUN --json",
    );
  }
  if (io.env.TERM === "dumb")
    throw new UsageError("show --tui cannot draw on TERM=dumb", "use vouch show RUN for text, or vouch show RUN --json");
}

async function replay(events: VouchEvent[], io: CliIO): Promise<number> {
  const { replayTui } = await import("../tui/app.tsx");
  await replayTui(events, { ...io.streams, color: colorEnabled(io) });
  return 0;
}

const showCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("show", args, {
    json: { type: "boolean" },
    tui: { type: "boolean" },
    diff: { type: "string" },
    transcript: { type: "string" },
    follow: { type: "boolean" },
  });
  if (values.follow) {
    if (values.tui || values.diff !== undefined || values.transcript !== undefined)
      throw new UsageError("--follow is the live view of the run (vouch watch): it takes --json, not --tui, --diff or --transcript");
    const { watchRun } = await import("./watch-command.ts");
    return watchRun(oneRun("show", positionals), { json: values.json === true }, io);
  }
  if (values.diff !== undefined && (values.json || values.tui)) throw new UsageError("--diff prints a patch; it excludes --json and --tui");
  if (values.diff !== undefined && values.transcript !== undefined) throw new UsageError("give --diff NODE or --transcript NODE, not both");
  const run = oneRun("show", positionals);
  if (values.tui) checkTerminal(io, values.json === true);
  if (values.transcript !== undefined && (values.tui || values.json))
    throw new UsageError("--transcript prints one path per line: it takes neither --json nor --tui");
  const ledger = openRecorded(io, run);
  let events: VouchEvent[];
  try {
    const runId = ledger.resolveRun(run);
    if (values.transcript !== undefined) {
      // Paths only, one per line, so `less "$(vouch show last --transcript fix)"` works.
      io.out(sanitize(`${transcriptPaths(ledger.runSummary(runId), values.transcript, io.env).join("\n")}\n`));
      return 0;
    }
    if (!values.tui) {
      const summary = ledger.runSummary(runId);
      if (values.diff !== undefined) return await printDiff(summary, values.diff, io);
      const transcripts = attachTranscripts(summary, io.env);
      // Tails, errors and prompts come from outside (check output, models): no escape
      // sequence of theirs reaches the terminal, as in the plain lines and the live UI.
      io.out(values.json ? `${JSON.stringify(summary, null, 2)}\n` : sanitize(renderShow(summary) + renderTranscripts(transcripts)));
      return 0;
    }
    events = ledger.runEvents(runId);
  } finally {
    ledger.close();
  }
  return replay(events, io);
};
export default showCommand;
