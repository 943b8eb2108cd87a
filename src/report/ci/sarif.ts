// `vouch report RUN --format sarif` (ADR 0058): the problems as one SARIF 2.1.0 run, for
// `github/codeql-action/upload-sarif` and any SARIF viewer. Rule ids per check
// (`vouch/check/NAME`), node status and finding; a finding's evidence as related
// locations; the run's base commit as versionControlProvenance; paths relative to
// %SRCROOT% (the repository root). Message text is plain text: escape sequences and
// controls dropped, and `[`, `]`, `\` escaped, so no text can become an embedded link.
// Checked against the official schema (test/fixtures/sarif/).
import { createHash } from "node:crypto";
import { sanitize } from "../../text/sanitize.ts";
import type { SourceLocation } from "./locations.ts";
import type { CiModel, Problem } from "./problems.ts";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
const MAX_TEXT = 8000;

/** SARIF plain-text message: `[text](target)` would be an embedded link, so brackets (and the backslash) are escaped. */
export function sarifText(text: string): string {
  const t = sanitize(text).trimEnd();
  return (t.length <= MAX_TEXT ? t : `${t.slice(0, MAX_TEXT - 1)}…`).replace(/[\\[\]]/g, (c) => `\\${c}`);
}

function physical(l: SourceLocation) {
  return {
    // Each segment encoded: a file named `a#b.ts` is a path, not a fragment.
    artifactLocation: { uri: l.path.split("/").map(encodeURIComponent).join("/"), uriBaseId: "%SRCROOT%" },
    region: { startLine: l.line, ...(l.column !== undefined ? { startColumn: l.column } : {}) },
  };
}

/** Stable over runs for the same problem at the same place (GitHub matches alerts by it). */
function fingerprint(p: Problem, where: SourceLocation | undefined): string {
  return createHash("sha256")
    .update([p.rule, where?.path ?? "", p.node.replace(/\[\d+\]/g, "[]"), p.message].join("\0"))
    .digest("hex")
    .slice(0, 32);
}

function fileUri(dir: string): string {
  const withSlash = dir.endsWith("/") ? dir : `${dir}/`;
  return `file://${encodeURI(withSlash)}`;
}

function result(p: Problem, ruleIndex: number, fallback: SourceLocation | undefined) {
  const where = p.location ?? fallback;
  return {
    ruleId: p.rule,
    ruleIndex,
    level: p.level,
    message: { text: sarifText(`${p.title}\n${p.message}`) },
    ...(where ? { locations: [{ physicalLocation: physical(where) }] } : {}),
    ...(p.related.length > 0
      ? {
          relatedLocations: p.related.map((r, i) => ({
            id: i + 1,
            physicalLocation: physical(r.location),
            message: { text: sarifText(r.message) },
          })),
        }
      : {}),
    partialFingerprints: { "vouch/v1": fingerprint(p, where) },
    properties: { "vouch.node": p.node, "vouch.kind": p.kind, ...(p.verdict ? { "vouch.verdict": p.verdict } : {}) },
  };
}

/** `version`: the vouch that made the run (its run.started). */
export function sarifLog(model: CiModel, version: string): Record<string, unknown> {
  const ruleIndex = new Map(model.rules.map((r, i) => [r.id, i]));
  const run = {
    tool: {
      driver: {
        name: "vouch",
        version,
        semanticVersion: version,
        rules: model.rules.map((r) => ({
          id: r.id,
          name: r.id.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "vouch",
          shortDescription: { text: sarifText(r.description) },
          defaultConfiguration: { level: r.level },
        })),
      },
    },
    automationDetails: { id: `vouch/${model.run.graph}/${model.run.id}` },
    originalUriBaseIds: { "%SRCROOT%": { uri: fileUri(model.root) } },
    ...(model.commit !== undefined
      ? {
          versionControlProvenance: [
            { repositoryUri: model.repositoryUri ?? fileUri(model.root), revisionId: model.commit, mappedTo: { uriBaseId: "%SRCROOT%" } },
          ],
        }
      : {}),
    invocations: [
      {
        executionSuccessful: model.run.status !== "error",
        ...(model.run.exitCode !== null ? { exitCode: model.run.exitCode } : {}),
      },
    ],
    results: model.problems.map((p) => result(p, ruleIndex.get(p.rule)!, model.graphLocation)),
    properties: { "vouch.run": model.run.id, "vouch.status": model.run.status, "vouch.findings.refuted": model.refuted },
  };
  return { $schema: SARIF_SCHEMA, version: "2.1.0", runs: [run] };
}

export function renderSarif(model: CiModel, version: string): string {
  return `${JSON.stringify(sarifLog(model, version), null, 2)}\n`;
}
