// `vouch runs [--json]`: recorded runs, newest first (docs/architecture.md §8, §10).
import { UsageError } from "../engine/errors.ts";
import { checkedLedgerHome, ledgerExists, openLedgerForReading } from "../ledger/index.ts";
import { renderRuns } from "../ledger/render-runs.ts";
import { sanitize } from "../text/sanitize.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./io.ts";

const runsCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("runs", args, { json: { type: "boolean" } });
  if (positionals.length > 0) throw new UsageError(`runs takes no arguments (got "${positionals[0]}")`, "to see one run: vouch show RUN");
  const home = checkedLedgerHome(io.env, io.cwd);
  if (!ledgerExists(home)) {
    if (values.json) io.out("[]\n");
    else io.out(`no runs recorded in ${home}\n`);
    return 0;
  }
  const ledger = openLedgerForReading({ home });
  try {
    const runs = ledger.listRuns();
    if (values.json) io.out(`${JSON.stringify(runs, null, 2)}\n`);
    else if (runs.length === 0) io.out(`no runs recorded in ${home}\n`);
    else io.out(sanitize(renderRuns(runs))); // a graph name may hold escape sequences
    return 0;
  } finally {
    ledger.close();
  }
};
export default runsCommand;
