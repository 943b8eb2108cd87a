// The facts a run's outputs must agree on, read back from each: every node
// verdict, branch verdict, failed check, overrun, retry, feedback round, pause
// and the run's end. The JSON side is read from the NDJSON text, the plain side
// is parsed from the printed lines, so a fact dropped by either writer shows.
import { eventSchema } from "../../../src/engine/events.ts";
import { verdictText } from "../../../src/tui/format.ts";
import { overrunText } from "../../../src/read/cap-text.ts";
import { oneLine } from "../../../src/text/lines.ts";
import { branchPath, nodePath } from "../../../src/read/node-path.ts";
import { sealSummary, type SealFacts } from "../../../src/read/seal.ts";

// Nodes and branches by the one label every reader prints (src/read/node-path.ts).
function where(e: { node?: string; branch?: { map: string; index: number } }): string {
  return e.node === undefined ? "run" : nodePath(e.node, e.branch);
}

export function factsFromJson(ndjson: string): string[] {
  const facts: string[] = [];
  // The highest feedback round seen in each scope (the top level, or one branch).
  const rounds = new Map<string, number>();
  // Each node's seal as its last node.finished recorded it (ADR 0040).
  const seals = new Map<string, SealFacts>();
  for (const l of ndjson.split("\n").filter(Boolean)) {
    const e = eventSchema.parse(JSON.parse(l));
    switch (e.type) {
      case "node.started": {
        const scope = e.branch ? `${e.branch.map}#${e.branch.index}` : "";
        if (e.round !== undefined && e.round > (rounds.get(scope) ?? 1)) facts.push(`round ${where(e)} ${e.round}`);
        if (e.round !== undefined) rounds.set(scope, Math.max(e.round, rounds.get(scope) ?? 1));
        break;
      }
      case "node.finished":
        if (!e.branch || e.status === "failed" || e.status === "error") facts.push(`node ${where(e)} ${e.status}`);
        if (e.sealed !== undefined)
          seals.set(where(e), { sealed: e.sealed, ...(e.unsealed_reason ? { unsealed_reason: e.unsealed_reason } : {}) });
        break;
      case "branch.finished":
        facts.push(`branch ${branchPath(e.branch.map, e.branch.index)} ${verdictText(e.verdict, e.status)}`);
        break;
      case "check.finished":
        if (!e.passed) facts.push(`check ${where(e)} ${e.name} failed`);
        break;
      case "cap.overrun":
        facts.push(`overrun ${e.scope === "run" ? "run" : where(e)} ${overrunText(e)}`);
        break;
      case "node.retrying":
        facts.push(`retry ${where(e)} ${e.attempt} ${e.cause}: ${oneLine(e.error ?? e.reason)}`);
        break;
      case "run.paused":
        for (const a of e.approvals) facts.push(`paused ${a.node}`);
        break;
      case "run.finished":
        facts.push(`run ${e.status} exit ${e.exit_code}`);
        // self_reported is absent in events recorded before it was counted: 0 then.
        facts.push(`counts ${JSON.stringify({ ...COUNTS, ...e.counts, self_reported: e.counts.self_reported ?? 0 })}`);
        if (seals.size > 0) facts.push(`sandbox ${sealSummary([...seals.values()])}`);
        break;
    }
  }
  return facts;
}

/** The key order of run.finished counts, so plain and JSON facts compare as text. */
const COUNTS = { passed: 0, self_reported: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 };

export function factsFromPlain(lines: string[]): string[] {
  const facts: string[] = [];
  let m: RegExpMatchArray | null;
  for (const l of lines) {
    if ((m = l.match(/^[✓✗!\-⊘] (\S+) (passed|failed|error|skipped|cancelled)\b/))) facts.push(`node ${m[1]} ${m[2]}`);
    else if ((m = l.match(/^[✓✗!\-⊘] (\S+\[\d+\]) .*  (\S+)$/))) facts.push(`branch ${m[1]} ${m[2]}`);
    else if ((m = l.match(/^✗ (.+) check (\S+) failed:/))) facts.push(`check ${m[1]} ${m[2]} failed`);
    else if ((m = l.match(/^⚠ (.+) cap overrun (.+)$/))) facts.push(`overrun ${m[1]} ${m[2]}`);
    else if ((m = l.match(/^↻ (.+) attempt (\d+) (\S+), retrying(?: in \S+)?: (.*)$/)))
      facts.push(`retry ${m[1]} ${m[2]} ${m[3]}: ${m[4]}`);
    else if ((m = l.match(/^↺ (.+) round (\d+): /))) facts.push(`round ${m[1]} ${m[2]}`);
    else if ((m = l.match(/^\? paused at approval (\S+)/))) facts.push(`paused ${m[1]}`);
    else if ((m = l.match(/^ {2}sandbox: (.+)$/))) facts.push(`sandbox ${m[1]}`);
    else if ((m = l.match(/^■ run (\S+)(?: \(.+\))? · exit (\d+)/))) facts.push(`run ${m[1]} exit ${m[2]}`);
    else if ((m = l.match(/^  ((?:\d+ (?:passed(?: \(\d+ self-reported\))?|failed|error|skipped|cancelled)(?: · )?)+|no nodes)$/))) {
      const counts: Record<string, number> = { ...COUNTS };
      for (const [, n, k] of m[1]!.matchAll(/(\d+) (\w+)/g)) counts[k!] = Number(n);
      const self = /\((\d+) self-reported\)/.exec(m[1]!);
      if (self) counts.self_reported = Number(self[1]);
      facts.push(`counts ${JSON.stringify(counts)}`);
    }
  }
  return facts;
}
