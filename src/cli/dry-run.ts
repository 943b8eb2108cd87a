// `vouch run --dry-run`: what would run, on which harness, under which caps —
// and what a harness would refuse. Starts nothing; exit 2 when something is refused.
import { planRun, type RunOptions, type PlannedNode } from "../engine/run.ts";
import { formatDuration } from "../engine/graph/duration.ts";
import { EXIT } from "../engine/errors.ts";
import { realAgentRunner } from "./run-session.ts";
import type { CliIO } from "./io.ts";
import { sanitize } from "../tui/text.ts";
import { sealSummary } from "../read/seal.ts";

function caps(node: PlannedNode): string {
  const c = node.caps;
  if (!c) return "";
  const parts: string[] = [];
  const byDefault = (cap: "wall" | "idle") => (node.defaultedCaps?.includes(cap) ? " (default)" : "");
  if (c.turns !== undefined) parts.push(`turns ${c.turns}`);
  if (c.budgetUsd !== undefined) parts.push(`budget $${c.budgetUsd.toFixed(2)}`);
  parts.push(c.wallMs !== undefined ? `wall ${formatDuration(c.wallMs)}${byDefault("wall")}` : "wall none");
  parts.push(c.idleMs !== undefined ? `idle ${formatDuration(c.idleMs)}${byDefault("idle")}` : "idle none");
  return parts.join(", ");
}

function inputSummary(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 40 || text.includes("\n") ? `(${text.length} characters)` : JSON.stringify(text);
}

export function printPlan(io: CliIO, options: Omit<RunOptions, "ports" | "signal">, opts: { json: boolean; replayDir?: string }): number {
  const plan = planRun({ ...options, ports: { agents: realAgentRunner({ ...io.env }, opts.replayDir) } });
  if (opts.json) {
    io.out(`${JSON.stringify(plan, null, 2)}\n`);
    return plan.refusals.length > 0 ? EXIT.usage : EXIT.passed;
  }
  const lines: string[] = [];
  lines.push(`dry run of ${plan.graph} (${options.graphPath}): nothing was started`);
  const inputs = Object.entries(plan.inputs).map(([k, v]) => `${k}=${inputSummary(v)}`);
  lines.push(`inputs: ${inputs.length ? inputs.join(", ") : "none"}`);
  const runCaps = [
    plan.caps.budgetUsd !== null ? `budget $${plan.caps.budgetUsd.toFixed(2)}` : null,
    plan.caps.wallMs !== null ? `wall ${formatDuration(plan.caps.wallMs)}` : null,
  ].filter(Boolean);
  lines.push(
    `run: concurrency ${plan.concurrency}${runCaps.length ? `, ${runCaps.join(", ")}` : ""}${plan.passEnv.length ? `, passing ${plan.passEnv.join(", ")}` : ""}`,
  );
  const width = Math.max(...plan.nodes.map((n) => n.id.length + (n.map ? 2 : 0)));
  for (const n of plan.nodes) {
    const id = `${n.map ? "  " : ""}${n.id}`.padEnd(width);
    const harness = n.harness ? `${n.harness.padEnd(8)}${caps(n)}` : "";
    lines.push(`  ${id}  ${n.kind.padEnd(8)} ${harness}`.trimEnd());
    for (const r of n.refusals) lines.push(`  ${" ".repeat(width)}  refused: ${r.message}`);
  }
  const sandbox = sealSummary(
    plan.nodes.map((n) => (n.sealed === undefined ? {} : { sealed: n.sealed, ...(n.unsealed ? { unsealed_reason: n.unsealed } : {}) })),
  );
  if (sandbox !== null) lines.push(`sandbox: ${sandbox}`);
  io.out(sanitize(`${lines.join("\n")}\n`)); // the graph's name and inputs come from outside
  if (plan.refusals.length > 0) {
    io.err(`vouch: ${plan.refusals.length} refusal${plan.refusals.length === 1 ? "" : "s"}: the run would not start\n`);
    return EXIT.usage;
  }
  return EXIT.passed;
}
