// Run a YAML graph through runGraph with scripted fakes and virtual time.
import YAML from "yaml";
import { expect } from "vitest";
import { graphSchema, type GraphFile } from "../../../src/engine/graph/schema.ts";
import { runGraph } from "../../../src/engine/run.ts";
import type { RunOptions, RunOutcome } from "../../../src/engine/run.ts";
import type { EventOf, EventType, VouchEvent } from "../../../src/engine/events.ts";
import { FakeClock } from "./fake-clock.ts";
import type { GitPort } from "../../../src/engine/ports.ts";
import { CheckingLedger, FakeAgentRunner, FakeApprovals, FakeCommandRunner, type SittingScript } from "./fakes.ts";

/** One agent node whose output_invalid retries continue its session (ADR 0023). */
export const retryContinueGraph = `
version: 1
name: t
nodes:
  work:
    kind: agent
    prompt: "do the work"
    output: { format: json }
    retry: { max: 2, on: [output_invalid], session: continue }
`;

export function graphOf(text: string): GraphFile {
  return graphSchema.parse(YAML.parse(text));
}

export interface RunSetup {
  agents?: SittingScript | FakeAgentRunner;
  commands?: FakeCommandRunner;
  approvals?: FakeApprovals;
  inputs?: Record<string, unknown>;
  options?: Partial<RunOptions>;
  clock?: FakeClock;
  ledger?: CheckingLedger;
  /** Absent: the refusing GitPort (a shared-folder graph never asks for git). */
  git?: GitPort;
  /** Ports beyond the fakes above (git, merge), added to them. */
  ports?: Partial<RunOptions["ports"]>;
}

export interface RunResult {
  outcome: RunOutcome;
  events: VouchEvent[];
  agents: FakeAgentRunner;
  commands: FakeCommandRunner;
  approvals: FakeApprovals;
  ledger: CheckingLedger;
  clock: FakeClock;
}

export function setup(yaml: string | GraphFile, s: RunSetup = {}) {
  const agents = s.agents instanceof FakeAgentRunner ? s.agents : new FakeAgentRunner(s.agents);
  const commands = s.commands ?? new FakeCommandRunner();
  const approvals = s.approvals ?? new FakeApprovals();
  const ledger = s.ledger ?? new CheckingLedger();
  const clock = s.clock ?? new FakeClock();
  const options: RunOptions = {
    runId: "run-test",
    graph: typeof yaml === "string" ? graphOf(yaml) : yaml,
    graphPath: "/work/graph.yaml",
    graphDigest: "sha256:test",
    inputs: s.inputs ?? {},
    baseDir: "/work/project",
    ports: { agents, commands, approvals, ledger, clock, ...(s.git ? { git: s.git } : {}), ...s.ports },
    version: "0.0.0-test",
    ...s.options,
  };
  return { agents, commands, approvals, ledger, clock, options };
}

export async function run(yaml: string | GraphFile, s: RunSetup = {}): Promise<RunResult> {
  const x = setup(yaml, s);
  const outcome = await x.clock.drive(runGraph(x.options));
  const events = x.ledger.events;
  const first = events[0]?.seq ?? 0;
  events.forEach((e, i) => expect(e.seq).toBe(first + i));
  expect(events.filter((e) => e.type === "run.finished")).toHaveLength(1);
  return { outcome, events, agents: x.agents, commands: x.commands, approvals: x.approvals, ledger: x.ledger, clock: x.clock };
}

export function ofType<T extends EventType>(events: VouchEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

/** The last node.finished of a node (in a branch when index is given). */
export function finishedOf(events: VouchEvent[], node: string, index?: number): EventOf<"node.finished"> {
  const all = ofType(events, "node.finished").filter(
    (e) => e.node === node && (index === undefined ? e.branch === undefined : e.branch?.index === index),
  );
  if (all.length === 0) throw new Error(`no node.finished for ${node}${index === undefined ? "" : `[${index}]`}`);
  return all[all.length - 1]!;
}

export function runFinished(events: VouchEvent[]): EventOf<"run.finished"> {
  return ofType(events, "run.finished")[0]!;
}
