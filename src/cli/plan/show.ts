// What `vouch plan` shows before anything of the plan runs: the graph drawn as
// `vouch graph` draws it, every agent's harness, tools, permission mode and folder,
// the dry run (caps and refusals) and the total budget; and the question asked
// before `--run` starts it.
import { createInterface } from "node:readline";
import { EXIT } from "../../engine/errors.ts";
import { drawText } from "../../engine/graph/draw-text.ts";
import { walkNodes, type WalkedNode } from "../../engine/graph/graph-walk.ts";
import { workspaceOf } from "../../engine/workspace/spec.ts";
import type { MergeNode } from "../../engine/graph/schema.ts";
import type { HarnessName } from "../../engine/ports.ts";
import { planRun, type RunPlan } from "../../engine/run.ts";
import { openLedgerForReading } from "../../ledger/index.ts";
import { sanitize } from "../../tui/text.ts";
import { printPlan } from "../dry-run.ts";
import { readGraphFile } from "../graph-file.ts";
import type { CliIO } from "../io.ts";
import { realAgentRunner } from "../run-session.ts";
import { version } from "../version.ts";
import { relative } from "node:path";

/** The planner node's last answer (the output of its last attempt) from the ledger. */
export function lastAnswer(home: string, runId: string, node: string, io: CliIO): { text: string; attempt: number } | undefined {
  const ledger = openLedgerForReading({ home, onNotice: io.err });
  try {
    const view = ledger.runSummary(runId).nodes.find((n) => n.node === node);
    const last = view?.attempts.filter((a) => typeof a.output === "string").at(-1);
    return last ? { text: last.output as string, attempt: view!.attempts.length } : undefined;
  } finally {
    ledger.close();
  }
}

export interface ShowSpec {
  planFile: string;
  checksFiles: string[];
  inputs: Record<string, string>;
  harness: HarnessName | undefined;
  passEnv: string[];
  budgetUsd: number | undefined;
  wallMs: number | undefined;
  replayDir: string | undefined;
}

function agentLines(plan: RunPlan, cwd: string, file: ReturnType<typeof readGraphFile>): string[] {
  const agents = plan.nodes.filter((n) => n.kind === "agent");
  if (agents.length === 0) return ["agents: none"];
  const walked = walkNodes(file.graph, file.path, file.subgraphs);
  const lines = ["agents (what each may do, before you approve):"];
  for (const a of agents) {
    const tools = a.tools === undefined ? "the harness's default tools" : a.tools.length === 0 ? "no tools" : `tools ${a.tools.join(", ")}`;
    const mode = a.permissionMode ?? "default";
    const folder = a.cwd === undefined ? "." : relative(cwd, a.cwd) || ".";
    const w = walked.find((n) => n.id === a.id && n.map === a.map);
    lines.push(`  ${a.map ? `${a.map}/` : ""}${a.id}: ${a.harness ?? "?"}, ${tools}, permission_mode ${mode}, folder ${folder}${where(w)}`);
  }
  return lines;
}

/** Where an agent works: its worktree and the paths it may not change (ADR 0047), or the shared folder. */
function where(w: WalkedNode | undefined): string {
  const ws = w === undefined ? null : workspaceOf(w.file, w.node);
  if (ws === null) return ", in the shared folder";
  return `, in a worktree${ws.protect.length > 0 ? ` protecting ${ws.protect.join(", ")}` : ""}`;
}

/** Every merge node and the branch it will write (its `into` as written, or the default),
 *  so the person approving sees which branches the plan makes. */
function mergeLines(file: ReturnType<typeof readGraphFile>): string[] {
  const merges = walkNodes(file.graph, file.path, file.subgraphs).filter((w) => w.node.kind === "merge");
  if (merges.length === 0) return [];
  return [
    "merges (the branch each writes, before you approve):",
    ...merges.map((w) => {
      const node = w.node as MergeNode;
      const into = node.into ?? `vouch/<run>/${w.id}`;
      const from = typeof node.from === "string" ? node.from : node.from.join(", ");
      return `  ${w.id}: into ${into}, from ${from}, base ${node.base ?? "HEAD"}`;
    }),
  ];
}

function budgetLine(plan: RunPlan): string {
  if (plan.caps.budgetUsd !== null) return `total budget: $${plan.caps.budgetUsd.toFixed(2)} (the run's cap)`;
  const caps = plan.nodes.filter((n) => n.kind === "agent").map((n) => n.caps?.budgetUsd);
  if (caps.length > 0 && caps.every((c) => c !== undefined) && !plan.nodes.some((n) => n.map)) {
    return `total budget: $${caps.reduce((s, c) => s + c!, 0).toFixed(2)} (the agents' caps added up, each sitting once; no run cap)`;
  }
  return "total budget: not bounded (no run cap; pass --budget USD to bound it)";
}

/** Prints the plan; returns the dry run's exit code (2 when a harness refuses something). */
export function showPlan(io: CliIO, spec: ShowSpec): number {
  const file = readGraphFile(spec.planFile, io.cwd, io.env);
  const options = {
    runId: "plan",
    graph: file.graph,
    graphPath: file.path,
    graphDigest: file.digest,
    inputs: spec.inputs,
    baseDir: io.cwd,
    passEnv: spec.passEnv,
    version,
    ...(spec.harness !== undefined ? { harness: spec.harness } : {}),
    ...(spec.budgetUsd !== undefined ? { budgetUsd: spec.budgetUsd } : {}),
    ...(spec.wallMs !== undefined ? { wallMs: spec.wallMs } : {}),
  };
  const out: string[] = [
    `plan written to ${relative(io.cwd, spec.planFile) || spec.planFile} (origin: planned; checks from ${spec.checksFiles.map((f) => relative(io.cwd, f)).join(", ")})`,
    "",
  ];
  out.push(drawText(file.graph).trimEnd(), "");
  let plan: RunPlan | undefined;
  try {
    plan = planRun({ ...options, ports: { agents: realAgentRunner({ ...io.env }, spec.replayDir) } });
  } catch {
    plan = undefined; // inputs missing, say: printPlan below says what
  }
  if (plan) out.push(...agentLines(plan, io.cwd, file), ...mergeLines(file), budgetLine(plan), "");
  io.out(sanitize(`${out.join("\n")}\n`));
  return printPlan(io, options, { json: false, ...(spec.replayDir !== undefined ? { replayDir: spec.replayDir } : {}) });
}

/** Asks on the terminal; only y or yes runs the plan. */
export async function approved(io: CliIO): Promise<boolean> {
  const rl = createInterface({ input: io.streams.stdin, output: io.streams.stderr });
  try {
    const answer = await new Promise<string>((resolve) => rl.question("Run this plan now? [y/N] ", resolve));
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
