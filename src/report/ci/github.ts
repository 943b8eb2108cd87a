// `vouch report RUN --format github` (ADR 0058): the problems as GitHub workflow commands,
// `::error file=F,line=L,col=C,title=T::MESSAGE`, which the runner turns into annotations
// on the diff. GitHub shows at most 10 errors, 10 warnings and 10 notices a step (50 a
// job): the worst are kept (problems.ts orders them), and one notice says how many were
// left out. Escaped by GitHub's rules (data: % CR LF; properties also : and ,) after
// escape sequences and control characters are dropped: whatever a check printed, a
// node was named or a model answered, every line this writes is one command of ours.
import { sanitize, sanitizeInline } from "../../text/sanitize.ts";
import type { CiModel, Level, Problem } from "./problems.ts";

/** GitHub's per-step limits, per level. */
export const STEP_LIMIT = 10;
const COMMAND: Record<Level, string> = { error: "error", warning: "warning", note: "notice" };
const MAX_MESSAGE = 4000;
const MAX_TITLE = 200;

/** Workflow-command data: `%`, CR and LF percent-encoded. */
export function commandData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow-command property value: as data, and `:` and `,` too. */
export function commandProperty(text: string): string {
  return commandData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function annotation(p: Problem): string {
  const props: string[] = [];
  if (p.location) {
    props.push(`file=${commandProperty(p.location.path)}`, `line=${p.location.line}`);
    if (p.location.column !== undefined) props.push(`col=${p.location.column}`);
  }
  props.push(`title=${commandProperty(cut(sanitizeInline(`vouch: ${p.title}`), MAX_TITLE))}`);
  return `::${COMMAND[p.level]} ${props.join(",")}::${commandData(cut(sanitize(p.message).trimEnd(), MAX_MESSAGE))}`;
}

/** What is annotated: every problem but an UNVERIFIABLE finding (only what the evidence verified goes on the diff). */
export function annotated(model: CiModel): Problem[] {
  return model.problems.filter((p) => p.verdict !== "UNVERIFIABLE");
}

export function renderGithub(model: CiModel): string {
  const problems = annotated(model);
  const lines: string[] = [];
  const left: Record<Level, number> = { error: 0, warning: 0, note: 0 };
  const shown: Record<Level, number> = { error: 0, warning: 0, note: 0 };
  const count = (l: Level) => problems.filter((p) => p.level === l).length;
  // A notice is kept back for the line that says what was left out, if anything is.
  const leftOut = count("error") > STEP_LIMIT || count("warning") > STEP_LIMIT || count("note") > STEP_LIMIT;
  for (const p of problems) {
    const limit = p.level === "note" && leftOut ? STEP_LIMIT - 1 : STEP_LIMIT;
    if (shown[p.level] < limit) {
      shown[p.level]++;
      lines.push(annotation(p));
    } else left[p.level]++;
  }
  const omitted = left.error + left.warning + left.note;
  if (omitted > 0) {
    const parts = (["error", "warning", "note"] as const)
      .filter((l) => left[l] > 0)
      .map((l) => `${left[l]} ${l === "note" ? "notice" : l}${left[l] === 1 ? "" : "s"}`);
    const text = `${omitted} more annotation${omitted === 1 ? "" : "s"} left out (${parts.join(", ")}): GitHub shows ${STEP_LIMIT} of each kind a step. The job summary and vouch show ${model.run.id} have them all.`;
    lines.push(`::notice title=${commandProperty("vouch: annotations left out")}::${commandData(sanitize(text))}`);
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
