// Plain and --json output of the same run carry the same facts: every node
// verdict, branch verdict, failed check, overrun, retry, pause and the run's
// end. The JSON side is read back from the NDJSON text, the plain side is
// parsed from the printed lines, so a fact dropped by either writer fails here.
import { describe, expect, test } from "vitest";
import { eventSchema, type VouchEvent } from "../../src/engine/events.ts";
import { overrunText, verdictText } from "../../src/tui/format.ts";
import { createNdjsonOutput } from "../../src/tui/ndjson-output.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { loadFixture } from "./helpers/fake-terminal.ts";

const FIXTURES = ["map-mixed", "failed-check", "overruns", "approval", "retry-fallback", "big-map"];

function where(e: { node?: string; branch?: { map: string; index: number } }): string {
  return e.branch ? `${e.branch.map} #${e.branch.index} ${e.node}` : (e.node ?? "run");
}

function factsFromJson(ndjson: string): string[] {
  const facts: string[] = [];
  for (const l of ndjson.split("\n").filter(Boolean)) {
    const e = eventSchema.parse(JSON.parse(l));
    switch (e.type) {
      case "node.finished":
        if (!e.branch || e.status === "failed" || e.status === "error") facts.push(`node ${where(e)} ${e.status}`);
        break;
      case "branch.finished":
        facts.push(`branch ${e.branch.map} #${e.branch.index} ${verdictText(e.verdict, e.status)}`);
        break;
      case "check.finished":
        if (!e.passed) facts.push(`check ${where(e)} ${e.name} failed`);
        break;
      case "cap.overrun":
        facts.push(`overrun ${e.scope === "run" ? "run" : where(e)} ${overrunText(e)}`);
        break;
      case "node.retrying":
        facts.push(`retry ${where(e)} ${e.attempt} ${e.cause}`);
        break;
      case "run.paused":
        for (const a of e.approvals) facts.push(`paused ${a.node}`);
        break;
      case "run.finished":
        facts.push(`run ${e.status} exit ${e.exit_code}`);
        facts.push(`counts ${JSON.stringify(e.counts)}`);
        break;
    }
  }
  return facts;
}

function factsFromPlain(lines: string[]): string[] {
  const facts: string[] = [];
  let m: RegExpMatchArray | null;
  for (const l of lines) {
    if ((m = l.match(/^[✓✗!\-⊘] (\S+(?: #\d+ \S+)?) (passed|failed|error|skipped|cancelled)\b/))) facts.push(`node ${m[1]} ${m[2]}`);
    else if ((m = l.match(/^[✓✗!\-⊘] (\S+) #(\d+) .*  (\S+)$/))) facts.push(`branch ${m[1]} #${m[2]} ${m[3]}`);
    else if ((m = l.match(/^✗ (.+) check (\S+) failed:/))) facts.push(`check ${m[1]} ${m[2]} failed`);
    else if ((m = l.match(/^⚠ (.+) cap overrun (.+)$/))) facts.push(`overrun ${m[1]} ${m[2]}`);
    else if ((m = l.match(/^↻ (.+) attempt (\d+) (\S+), retrying/))) facts.push(`retry ${m[1]} ${m[2]} ${m[3]}`);
    else if ((m = l.match(/^\? paused at approval (\S+)/))) facts.push(`paused ${m[1]}`);
    else if ((m = l.match(/^■ run (\S+)(?: \(.+\))? · exit (\d+)/))) facts.push(`run ${m[1]} exit ${m[2]}`);
    else if ((m = l.match(/^  ((?:\d+ (?:passed|failed|error|skipped|cancelled)(?: · )?)+|no nodes)$/))) {
      const counts: Record<string, number> = { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 };
      for (const [, n, k] of m[1]!.matchAll(/(\d+) (\w+)/g)) counts[k!] = Number(n);
      facts.push(`counts ${JSON.stringify(counts)}`);
    }
  }
  return facts;
}

async function both(events: VouchEvent[]): Promise<{ json: string[]; plain: string[] }> {
  let ndjson = "";
  let text = "";
  const outputs = [createNdjsonOutput((t) => (ndjson += t)), createPlainOutput((t) => (text += t), { color: false, width: 1000 })];
  for (const e of events) for (const o of outputs) o.push(e);
  for (const o of outputs) await o.close();
  return { json: factsFromJson(ndjson), plain: factsFromPlain(text.split("\n")) };
}

describe("plain and --json carry the same facts", () => {
  test.each(FIXTURES)("%s", async (name) => {
    const { json, plain } = await both(loadFixture(name));
    expect(json.length).toBeGreaterThan(1);
    expect(plain).toEqual(json);
  });

  test("the comparison notices a fact missing from the plain side", async () => {
    const events = loadFixture("map-mixed");
    const { json } = await both(events);
    const { plain } = await both(events.filter((e) => e.type !== "cap.overrun"));
    expect(plain).not.toEqual(json);
  });
});
