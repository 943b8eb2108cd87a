// Scripted fakes for the engine's ports. The engine never spawns: these record
// what it asked for and answer what the test scripted.
import type {
  AgentAssignment,
  AgentHooks,
  AgentPlan,
  AgentRunner,
  ApprovalRequest,
  Approvals,
  CheckOutcome,
  CheckSpec,
  CommandContext,
  CommandRunner,
  Ledger,
  Refusal,
  ScriptOutcome,
  ScriptSpec,
  Sitting,
} from "../../../src/engine/ports.ts";
import { eventSchema, type VouchEvent } from "../../../src/engine/events.ts";

export function sitting(partial: Partial<Sitting> = {}): Sitting {
  return {
    stopReason: "complete",
    resultText: "done",
    turns: 1,
    costUsd: 0.01,
    tokens: null,
    wallMs: 10,
    permissionDenials: 0,
    exitCode: 0,
    stderrTail: "",
    ...partial,
  };
}

export type SittingScript = (a: AgentAssignment, hooks: AgentHooks) => Partial<Sitting> | Promise<Partial<Sitting>>;

/** Per node id: one answer per attempt (the last repeats), or a function. */
export function byNode(table: Record<string, Partial<Sitting>[] | SittingScript>, fallback: SittingScript = () => ({})): SittingScript {
  return (a, hooks) => {
    const entry = table[a.node];
    if (entry === undefined) return fallback(a, hooks);
    if (typeof entry === "function") return entry(a, hooks);
    return entry[Math.min(a.attempt, entry.length) - 1] ?? {};
  };
}

/** Waits until the signal aborts, then answers the way a real harness does. */
export function untilAborted(signal: AbortSignal): Promise<Partial<Sitting>> {
  return new Promise((resolve) => {
    const done = () => resolve({ stopReason: "cancelled", resultText: "", exitCode: null, error: "cancelled by vouch" });
    if (signal.aborted) done();
    else signal.addEventListener("abort", done, { once: true });
  });
}

export class FakeAgentRunner implements AgentRunner {
  readonly assignments: AgentAssignment[] = [];
  readonly plans: AgentPlan[] = [];
  readonly aborted: string[] = [];
  live = 0;
  maxLive = 0;
  /** Keep assignments (turn off for 10k-item runs). */
  record = true;

  constructor(
    private readonly script: SittingScript = () => ({}),
    private readonly refusals: (plan: AgentPlan) => Refusal[] = () => [],
  ) {}

  refuse(plan: AgentPlan): Refusal[] {
    this.plans.push(plan);
    return this.refusals(plan);
  }

  async run(a: AgentAssignment, hooks: AgentHooks): Promise<Sitting> {
    if (this.record) this.assignments.push(a);
    this.live++;
    this.maxLive = Math.max(this.maxLive, this.live);
    // Only an abort while the sitting is live counts (the signal is shared by a map's branches).
    const onAbort = () => this.aborted.push(a.branch ? `${a.node}[${a.branch.index}]` : a.node);
    hooks.signal.addEventListener("abort", onAbort, { once: true });
    try {
      return sitting(await this.script(a, hooks));
    } finally {
      hooks.signal.removeEventListener("abort", onAbort);
      this.live--;
    }
  }

  prompts(node: string): string[] {
    return this.assignments.filter((a) => a.node === node).map((a) => a.prompt);
  }
}

export function checkOutcome(spec: CheckSpec, partial: Partial<CheckOutcome> = {}): CheckOutcome {
  return {
    name: spec.name,
    passed: true,
    expect: typeof spec.expect === "string" ? spec.expect : JSON.stringify(spec.expect),
    exit: 0,
    signal: null,
    timedOut: false,
    durationMs: 5,
    stdoutTail: "",
    stderrTail: "",
    truncated: false,
    ...partial,
  };
}

export function scriptOutcome(partial: Partial<ScriptOutcome> = {}): ScriptOutcome {
  const stdout = partial.stdoutTail ?? "";
  return {
    exit: 0,
    signal: null,
    terminationReason: "exit",
    wallMs: 5,
    stdoutTail: stdout,
    stderrTail: "",
    stdoutBytes: new TextEncoder().encode(stdout).length,
    stderrBytes: 0,
    truncated: false,
    ...partial,
  };
}

export class FakeCommandRunner implements CommandRunner {
  readonly checks: { spec: CheckSpec; ctx: CommandContext }[] = [];
  readonly scripts: { spec: ScriptSpec; ctx: CommandContext }[] = [];
  constructor(
    private readonly onCheck: (spec: CheckSpec, ctx: CommandContext) => Partial<CheckOutcome> | Promise<Partial<CheckOutcome>> = () => ({}),
    private readonly onScript: (
      spec: ScriptSpec,
      ctx: CommandContext,
    ) => Partial<ScriptOutcome> | Promise<Partial<ScriptOutcome>> = () => ({}),
  ) {}

  async runCheck(spec: CheckSpec, ctx: CommandContext): Promise<CheckOutcome> {
    this.checks.push({ spec, ctx });
    return checkOutcome(spec, await this.onCheck(spec, ctx));
  }

  async runScript(spec: ScriptSpec, ctx: CommandContext): Promise<ScriptOutcome> {
    this.scripts.push({ spec, ctx });
    return scriptOutcome(await this.onScript(spec, ctx));
  }
}

export class FakeApprovals implements Approvals {
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly answers: Record<string, "approve" | "reject" | "pause"> = {}) {}
  async decide(request: ApprovalRequest): Promise<"approve" | "reject" | "pause"> {
    this.requests.push(request);
    return this.answers[request.node] ?? "pause";
  }
}

/** A ledger that checks every event against the zod union: a wrong event throws, and the run fails. */
export class CheckingLedger implements Ledger {
  readonly events: VouchEvent[] = [];
  /** Keep events (turn off for 10k-item runs: then only counts are kept). */
  keep = true;
  count = 0;
  readonly byType = new Map<string, number>();
  append(event: VouchEvent): void {
    const parsed = eventSchema.safeParse(event);
    if (!parsed.success) throw new Error(`invalid ${event.type} event: ${parsed.error.message}\n${JSON.stringify(event)}`);
    this.count++;
    this.byType.set(event.type, (this.byType.get(event.type) ?? 0) + 1);
    if (this.keep) this.events.push(event);
  }
}
