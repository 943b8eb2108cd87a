// `vouch report RUN --format codequality` (ADR 0058): GitLab's Code Quality report (the
// Code Climate issue subset GitLab documents: description, check_name, fingerprint,
// severity, location.path, location.lines.begin), for `artifacts: reports: codequality`.
// The problems GitLab can place: a located failed check or VERIFIED finding at its line,
// a node or a check without a location at the graph file's line 1. An UNVERIFIABLE
// finding is no issue in a merge request; a FALSE one is not reported at all.
import { createHash } from "node:crypto";
import { sanitize } from "../../text/sanitize.ts";
import type { CiModel, Level, Problem } from "./problems.ts";

/** Code Climate severities: info, minor, major, critical, blocker. */
const SEVERITY: Record<Level, string> = { error: "major", warning: "minor", note: "info" };
const MAX_TEXT = 4000;

function text(s: string): string {
  const t = sanitize(s).trimEnd();
  return t.length <= MAX_TEXT ? t : `${t.slice(0, MAX_TEXT - 1)}…`;
}

export function codeQualityIssues(model: CiModel): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const p of model.problems) {
    if (p.verdict === "UNVERIFIABLE") continue;
    const where = p.location ?? model.graphLocation;
    if (!where) continue;
    let fingerprint = digest(p, where.path);
    // GitLab treats two issues with one fingerprint as one: a second at another line gets its own.
    for (let n = 1; seen.has(fingerprint); n++) fingerprint = digest(p, where.path, String(where.line), String(n));
    seen.add(fingerprint);
    out.push({
      type: "issue",
      check_name: p.rule,
      description: text(`vouch: ${p.title}: ${p.message}`),
      categories: ["Bug Risk"],
      severity: SEVERITY[p.level],
      fingerprint,
      location: { path: where.path, lines: { begin: where.line } },
    });
  }
  return out;
}

function digest(p: Problem, path: string, ...more: string[]): string {
  return createHash("sha256")
    .update([p.rule, path, p.node.replace(/\[\d+\]/g, "[]"), p.message, ...more].join("\0"))
    .digest("hex")
    .slice(0, 32);
}

export function renderCodeQuality(model: CiModel): string {
  return `${JSON.stringify(codeQualityIssues(model), null, 2)}\n`;
}
