// One report of a recorded run in a format: reads the ledger through its read
// API (what `vouch show --json` prints, and the run's events for the timeline).
import { UsageError } from "../engine/errors.ts";
import type { RunLedger, RunSummary } from "../ledger/index.ts";
import type { Drawing } from "../engine/graph/draw-dot.ts";
import { reportModel } from "./model.ts";

export const REPORT_FORMATS = ["html", "junit", "markdown"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function reportFormat(value: string, where: string): ReportFormat {
  if ((REPORT_FORMATS as readonly string[]).includes(value)) return value as ReportFormat;
  throw new UsageError(`${where}: unknown report format "${value}" (formats: ${REPORT_FORMATS.join(", ")})`, "see: vouch report --help");
}

/** `drawingFor`: the graph as `vouch graph` draws it, when the command can read the run's
 *  graph file as it was (src/cli/graph-drawing.ts); without one the recorded nodes are drawn. */
export async function renderReport(
  ledger: RunLedger,
  runId: string,
  format: ReportFormat,
  drawingFor: (summary: RunSummary) => Drawing | undefined = () => undefined,
): Promise<string> {
  const summary = ledger.runSummary(runId);
  const model = reportModel(summary, ledger.runEvents(runId), format === "html" ? drawingFor(summary) : undefined);
  if (format === "junit") return (await import("./junit.ts")).renderJunit(model);
  if (format === "markdown") return (await import("./markdown.ts")).renderMarkdown(model);
  const [{ renderHtml }, { graphSvg }] = await Promise.all([import("./html.ts"), import("./graph-svg.ts")]);
  return renderHtml(model, await graphSvg(model));
}
