// `vouch show RUN [--json]`: one run from the ledger (DESIGN.md §7, §9).
// RUN is a run id, a unique prefix of one, or `last`.
import { UsageError } from "../engine/errors.ts";
import { ledgerExists, ledgerHome, openLedger } from "../ledger/index.ts";
import { renderShow } from "../ledger/render-show.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./io.ts";

const showCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("show", args, { json: { type: "boolean" }, tui: { type: "boolean" } });
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0 ? "show needs a RUN: a run id, a unique prefix of one, or last" : `show takes one RUN (got ${positionals.length})`,
      "see the recorded runs with: vouch runs",
    );
  }
  if (values.tui) {
    throw new UsageError("show --tui is not available in this build", "use vouch show RUN for text, or --json");
  }
  const home = ledgerHome(io.env, io.cwd);
  if (!ledgerExists(home)) {
    throw new UsageError(`no run "${positionals[0]}": no runs are recorded in ${home}`, "run a graph first (vouch run GRAPH), or set VOUCH_HOME to the folder that holds its ledger");
  }
  const ledger = openLedger({ home });
  try {
    const summary = ledger.runSummary(ledger.resolveRun(positionals[0]!));
    io.out(values.json ? `${JSON.stringify(summary, null, 2)}\n` : renderShow(summary));
    return 0;
  } finally {
    ledger.close();
  }
};
export default showCommand;
