// `vouch report RUN [--format html|junit|markdown|github|sarif|codequality] [-o FILE]`: a
// recorded run as a web page, JUnit XML, a Markdown summary (ADR 0014), GitHub
// annotations, SARIF or a GitLab Code Quality report (ADR 0058). RUN as for show.
import { ciContextFor } from "./ci-context.ts";
import { renderReport, reportFormat } from "../report/render.ts";
import { checkWritable, writeReport } from "../report/write-report.ts";
import { resolve } from "node:path";
import { parseCommandArgs } from "./args.ts";
import { oneRun, openRecorded } from "./recorded-ledger.ts";
import { recordedDrawing } from "./graph-drawing.ts";
import type { Command } from "./io.ts";

const reportCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("report", args, {
    format: { type: "string", short: "f" },
    output: { type: "string", short: "o" },
    root: { type: "string" },
  });
  const format = reportFormat(values.format ?? "html", "report --format");
  const run = oneRun("report", positionals);
  const file = values.output === undefined ? null : resolve(io.cwd, values.output);
  if (file) checkWritable(file, "-o");
  // As show: a ledger vouch may not write is still read (ADR 0013).
  const ledger = openRecorded(io, run);
  let text: string;
  try {
    text = await renderReport(ledger, ledger.resolveRun(run), format, recordedDrawing(io), ciContextFor(io.env, io.cwd, values.root));
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
