// `vouch report RUN [--format html|junit|markdown|github|sarif|codequality] [-o FILE]`: a
// recorded run as a web page, JUnit XML, a Markdown summary (ADR 0014), GitHub
// annotations, SARIF or a GitLab Code Quality report (ADR 0058). RUN as for show.
import { UsageError } from "../engine/errors.ts";
import { checkedLedgerHome, ledgerExists, openLedgerForReading } from "../ledger/index.ts";
import { ciContextFor } from "../report/ci/context.ts";
import { renderReport, reportFormat } from "../report/render.ts";
import { checkWritable, writeReport } from "../report/write-report.ts";
import { resolve } from "node:path";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./io.ts";

const reportCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("report", args, {
    format: { type: "string", short: "f" },
    output: { type: "string", short: "o" },
    root: { type: "string" },
  });
  const format = reportFormat(values.format ?? "html", "report --format");
  if (positionals.length !== 1) {
    throw new UsageError(
      positionals.length === 0
        ? "report needs a RUN: a run id, a unique prefix of one, or last"
        : `report takes one RUN (got ${positionals.length})`,
      "see the recorded runs with: vouch runs",
    );
  }
  const file = values.output === undefined ? null : resolve(io.cwd, values.output);
  if (file) checkWritable(file, "-o");
  const home = checkedLedgerHome(io.env, io.cwd);
  if (!ledgerExists(home)) {
    throw new UsageError(
      `no run "${positionals[0]}": no runs are recorded in ${home}`,
      "run a graph first (vouch run GRAPH), or set VOUCH_HOME to the folder that holds its ledger",
    );
  }
  // As show: a ledger vouch may not write is still read (ADR 0013).
  const ledger = openLedgerForReading({ home });
  let text: string;
  try {
    text = await renderReport(ledger, ledger.resolveRun(positionals[0]!), format, ciContextFor(io.env, io.cwd, values.root));
  } finally {
    ledger.close();
  }
  if (file) {
    writeReport(file, text, "-o");
    io.err(`vouch: wrote the ${format} report to ${file}\n`);
  } else io.out(text);
  return 0;
};
export default reportCommand;
