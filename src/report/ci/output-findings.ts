// Review findings in node outputs (ADR 0058; the shape in docs/ci.md): an agent's or a
// script's output that is a finding — an object with a `verdict` of VERIFIED,
// UNVERIFIABLE or FALSE — or holds a list of them (the output itself, or its `findings`
// or `verdicts` field). The finding-verifier's branches answer exactly that. A finding
// says where (`path` + `line`, else the first evidence `at` that is `path:line`), what
// (`message`, else `title`, else `note`), how bad (`severity`: error, warning or note;
// absent: warning) and the evidence (`evidence: [{at, quote}]`). Outputs are a model's
// words: anything else in them is ignored. Pure.
import { atLocation, locationOf, type PathBase, type SourceLocation } from "./locations.ts";

export const VERDICTS = ["VERIFIED", "UNVERIFIABLE", "FALSE"] as const;
export type FindingVerdict = (typeof VERDICTS)[number];
export type Severity = "error" | "warning" | "note";

export interface OutputFinding {
  id?: string;
  verdict: FindingVerdict;
  severity: Severity;
  message: string;
  /** Why: the finding's `note` (for UNVERIFIABLE, the reason it could not be checked). */
  note?: string;
  location?: SourceLocation;
  evidence: { location?: SourceLocation; at: string; quote: string }[];
  rule?: string;
}

/** The most findings read from one output, and of evidence from one finding. */
const MAX_FINDINGS = 500;
const MAX_EVIDENCE = 20;
const MAX_TEXT = 4000;

const SEVERITY: Record<string, Severity> = {
  error: "error",
  critical: "error",
  high: "error",
  blocker: "error",
  warning: "warning",
  medium: "warning",
  major: "warning",
  note: "note",
  info: "note",
  low: "note",
  minor: "note",
};

/** A finding's severity by name; an unknown name (`__proto__` too: looked up as an own key) is a warning. */
function severityOf(v: unknown): Severity {
  const name = typeof v === "string" ? v.trim().toLowerCase() : "";
  return Object.hasOwn(SEVERITY, name) ? SEVERITY[name]! : "warning";
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.slice(0, MAX_TEXT) : undefined;
}

/** An object's own fields only: a model's JSON can name `__proto__` or `constructor`, and nothing inherited is read. */
function record(v: unknown): Record<string, unknown> | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const own: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(v)) own[k] = (v as Record<string, unknown>)[k];
  return own;
}

function verdictOf(v: unknown): FindingVerdict | null {
  const upper = typeof v === "string" ? v.trim().toUpperCase() : "";
  return (VERDICTS as readonly string[]).includes(upper) ? (upper as FindingVerdict) : null;
}

function evidenceOf(v: unknown, base: PathBase): OutputFinding["evidence"] {
  if (!Array.isArray(v)) return [];
  const out: OutputFinding["evidence"] = [];
  for (const e of v.slice(0, MAX_EVIDENCE)) {
    const r = record(e);
    const at = text(r?.at);
    if (!r || at === undefined) continue;
    const location = atLocation(at, base);
    out.push({ at, quote: text(r.quote) ?? "", ...(location ? { location } : {}) });
  }
  return out;
}

function findingOf(v: unknown, base: PathBase): OutputFinding | null {
  const r = record(v);
  const verdict = r ? verdictOf(r.verdict) : null;
  if (!r || verdict === null) return null;
  const evidence = evidenceOf(r.evidence, base);
  const path = text(r.path);
  const location = (path !== undefined ? locationOf(path, r.line, r.column, base) : null) ?? evidence.find((e) => e.location)?.location;
  const note = text(r.note);
  const message = text(r.message) ?? text(r.title) ?? note ?? `finding ${text(r.id) ?? ""}`.trim();
  const id = text(r.id);
  const rule = text(r.rule);
  return {
    verdict,
    severity: severityOf(r.severity),
    message,
    evidence,
    ...(id !== undefined ? { id } : {}),
    ...(note !== undefined && note !== message ? { note } : {}),
    ...(location ? { location } : {}),
    ...(rule !== undefined ? { rule } : {}),
  };
}

/** The findings an output holds, in order; none when it holds none. */
export function outputFindings(output: unknown, base: PathBase): OutputFinding[] {
  const r = record(output);
  const single = findingOf(output, base);
  if (single) return [single];
  const list = Array.isArray(output) ? output : Array.isArray(r?.findings) ? r.findings : Array.isArray(r?.verdicts) ? r.verdicts : [];
  const out: OutputFinding[] = [];
  for (const item of (list as unknown[]).slice(0, MAX_FINDINGS)) {
    const f = findingOf(item, base);
    if (f) out.push(f);
  }
  return out;
}
