// One report of a recorded run in a format: reads the ledger through its read
// API (what `vouch show --json` prints, and the run's events for the timeline).
import { UsageError } from "../engine/errors.ts";
import type { RunLedger, RunSummary } from "../ledger/index.ts";
import type { Drawing } from "../engine/graph/draw-dot.ts";
import type { CiContext } from "./ci/problems.ts";
import { reportModel } from "./model.ts";

export const REPORT_FORMATS = ["html", "junit", "markdown", "github", "sarif", "codequality"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function reportFormat(value: string, where: string): ReportFormat {
  if ((REPORT_FORMATS as readonly string[]).includes(value)) return value as ReportFormat;
  throw new UsageError(`${where}: unknown report format "${value}" (formats: ${REPORT_FORMATS.join(", ")})`, "see: vouch report --help");
}

/** The CI formats' context for a run whose relative paths start at `baseDir` (the command line builds it). */
export type CiContextFor = (baseDir: string | undefined) => CiContext;

/** `drawingFor`: the graph as `vouch graph` draws it, when the command can read the run's
 *  graph file as it was (src/cli/graph-drawing.ts); without one the recorded nodes are drawn.
 *  `ci`: where the run's files are, for github, sarif and codequality (src/cli/ci-context.ts). */
export async function renderReport(
  ledger: RunLedger,
  runId: string,
  format: ReportFormat,
  drawingFor: (summary: RunSummary) => Drawing | undefined = () => undefined,
  ci?: CiContextFor,
): Promise<string> {
  const summary = ledger.runSummary(runId);
  const events = ledger.runEvents(runId);
  const model = reportModel(summary, events, format === "html" ? drawingFor(summary) : undefined);
  if (format === "github" || format === "sarif" || format === "codequality") {
    const started = events.find((e) => e.type === "run.started");
    const baseDir = started?.type === "run.started" ? started.base_dir : undefined;
    const { ciModel } = await import("./ci/problems.ts");
    // Without a context from the command line, the run's own folder is the repository.
    const m = ciModel(model, events, (ci ?? ((dir) => ({ root: dir ?? "." })))(baseDir));
    if (format === "github") return (await import("./ci/github.ts")).renderGithub(m);
    if (format === "codequality") return (await import("./ci/codequality.ts")).renderCodeQuality(m);
    return (await import("./ci/sarif.ts")).renderSarif(m, model.summary.run.version);
  }
  if (format === "junit") return (await import("./junit.ts")).renderJunit(model);
  if (format === "markdown") return (await import("./markdown.ts")).renderMarkdown(model);
  const [{ renderHtml }, { graphSvg }] = await Promise.all([import("./html.ts"), import("./graph-svg.ts")]);
  return renderHtml(model, await graphSvg(model));
}
