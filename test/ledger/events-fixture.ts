// Builds valid events (each one passes eventSchema) for ledger tests.
import { eventSchema, type EventOf, type EventType, type VouchEvent } from "../../src/engine/events.ts";

type Body<T extends EventType> = Omit<EventOf<T>, "v" | "run" | "t" | "seq" | "type">;
type NodeRef = { node: string; branch?: { map: string; index: number } };

export const T0 = Date.parse("2026-11-29T22:00:00.000Z");

export class RunScript {
  readonly events: VouchEvent[] = [];
  /** Milliseconds after T0 of the next event. */
  clock = 0;
  constructor(
    readonly run: string,
    public seq = 0,
  ) {}

  ev<T extends EventType>(type: T, body: Body<T>, advanceMs = 100): EventOf<T> {
    this.clock += advanceMs;
    const e = eventSchema.parse({
      v: 1,
      run: this.run,
      t: new Date(T0 + this.clock).toISOString(),
      seq: this.seq++,
      type,
      ...body,
    }) as EventOf<T>;
    this.events.push(e);
    return e;
  }

  started(over: Partial<Body<"run.started">> = {}): EventOf<"run.started"> {
    return this.ev("run.started", {
      graph: "demo",
      graph_path: "graphs/demo.yaml",
      graph_digest: "sha256:aaaa",
      inputs: { topic: "x" },
      caps: { budget_usd: 5, wall_ms: null },
      concurrency: 4,
      nodes: [
        { id: "build", kind: "script", needs: [] },
        { id: "review", kind: "agent", needs: ["build"] },
        { id: "each", kind: "map", needs: ["review"] },
        { id: "verify", kind: "agent", needs: [], map: "each" },
        { id: "done", kind: "end", needs: ["each"] },
      ],
      pass_env: [],
      harness: null,
      resumed: false,
      version: "0.1.0",
      ...over,
    });
  }

  nodeStarted(ref: NodeRef, kind: string, attempt = 1): EventOf<"node.started"> {
    return this.ev("node.started", { ...ref, kind, attempt });
  }

  check(ref: NodeRef, name: string, passed: boolean, over: Partial<Body<"check.finished">> = {}): EventOf<"check.finished"> {
    return this.ev("check.finished", {
      ...ref,
      attempt: 1,
      name,
      passed,
      expect: "exit_zero",
      ...(passed ? {} : { reason: "exit 1" }),
      exit: passed ? 0 : 1,
      signal: null,
      timed_out: false,
      duration_ms: 1200,
      stdout_tail: passed ? "ok\n" : `FAIL ${name}: expected 2, got 3\n  at test.ts:10\n`,
      stderr_tail: passed ? "" : `error: ${name} failed\n`,
      truncated: false,
      ...over,
    });
  }

  finished(ref: NodeRef, status: EventOf<"node.finished">["status"], over: Partial<Body<"node.finished">> = {}): EventOf<"node.finished"> {
    return this.ev("node.finished", {
      ...ref,
      attempt: 1,
      status,
      qualifier: status === "passed" ? "exit-only" : null,
      stop_reason: "complete",
      cause: null,
      cost_usd: null,
      turns: null,
      wall_ms: 1000,
      ...over,
    });
  }

  /** attempt.judged of one attempt (ADR 0068): an agent's claims "done" unless told. */
  judged(
    ref: NodeRef,
    kind: "agent" | "script",
    attempt: number,
    over: Partial<Body<"attempt.judged">> & Pick<Body<"attempt.judged">, "status">,
  ): EventOf<"attempt.judged"> {
    return this.ev(
      "attempt.judged",
      {
        ...ref,
        attempt,
        kind,
        ...(kind === "agent" ? { harness: "claude", claim: "done" } : {}),
        qualifier: null,
        cause: null,
        cost_usd: null,
        turns: null,
        ...over,
      },
      0,
    ); // at no cost in time: the other events' times (and the runs' walls) stay as they were
  }

  runFinished(status: EventOf<"run.finished">["status"], over: Partial<Body<"run.finished">> = {}): EventOf<"run.finished"> {
    const exit = { passed: 0, failed: 1, error: 3, paused: 4, interrupted: 130 }[status];
    return this.ev("run.finished", {
      status,
      exit_code: exit,
      cost_usd: 0,
      cost_unknown: 0,
      wall_ms: this.clock,
      counts: { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 },
      ...over,
    });
  }
}

/** One run that uses every event type: a script with a failed check and a
 *  retry, an agent with an overrun, a map of two branches, a pause, the end. */
export function fullRun(run = "r-full-0001"): RunScript {
  const s = new RunScript(run);
  s.started({ pass_env: ["ANTHROPIC_API_KEY", "GH_TOKEN"] });
  s.nodeStarted({ node: "build" }, "script");
  s.check({ node: "build" }, "tests", false);
  s.judged({ node: "build" }, "script", 1, { status: "failed", cause: "check_failed", cost_usd: 0 });
  s.ev("node.retrying", { node: "build", attempt: 1, cause: "check_failed", reason: "check tests failed: exit 1", backoff_ms: 0 });
  s.nodeStarted({ node: "build" }, "script", 2);
  s.check({ node: "build" }, "tests", true, { attempt: 2 });
  s.check({ node: "build" }, "lint", true, { attempt: 2 });
  s.judged({ node: "build" }, "script", 2, { status: "passed", qualifier: "verified", retry_of: "check_failed", cost_usd: 0 });
  s.finished({ node: "build" }, "passed", { attempt: 2, qualifier: "verified", stop_reason: null, output: { artifacts: 3 } });
  s.nodeStarted({ node: "review" }, "agent");
  s.ev("node.progress", {
    node: "review",
    attempt: 1,
    turns: 3,
    cost_usd: 0.02,
    tokens: { input: 10, output: 20, cache_read: 3000, cache_creation: 5 },
    activity: "Read src/a.ts",
  });
  s.ev("cap.overrun", { node: "review", attempt: 1, scope: "node", cap: "turns", limit: 4, actual: 5 });
  // The usage-limit events (ADR 0022), at no cost in time; review's node.finished below
  // overwrites every column node.limited set on its row, so the projections stay as they were.
  s.ev(
    "node.limited",
    {
      node: "review",
      attempt: 1,
      harness: "claude",
      resets_at: "2026-11-29T15:00:00.000Z",
      error: "claude hit a usage or rate limit",
      cost_usd: 0,
      turns: 0,
      tokens: null,
    },
    0,
  );
  s.ev(
    "run.waiting",
    {
      reason: "rate_limited",
      harness: "claude",
      resets_at: "2026-11-29T15:00:00.000Z",
      wait_ms: 60_000,
      until: "2026-11-29T15:00:00.000Z",
    },
    0,
  );
  s.finished({ node: "review" }, "passed", {
    qualifier: "self-reported",
    cost_usd: 0.05,
    turns: 5,
    tokens: { input: 10, output: 40, cache_read: 9000, cache_creation: 5 },
    output: { findings: ["a", "b"] },
    result_tail: "PASS",
  });
  s.nodeStarted({ node: "each" }, "map");
  for (const index of [0, 1]) {
    const branch = { map: "each", index };
    s.ev("branch.started", { branch, item: { id: `F-${index}` }, label: `F-${index}` });
    // Branches handed to workers (ADR 0026): the second one's first attempt was cut off.
    s.ev("branch.dispatched", { branch, executor: "redis", job: `${run}.each.${index}.1`, dispatch: 1 }, 0);
    if (index === 1) s.ev("branch.cut_off", { branch, job: `${run}.each.${index}.1`, attempt: 1, worker: "vm-1:42" }, 0);
    // ...and its result came after another attempt had the job: refused (ADR 0046).
    if (index === 1)
      s.ev(
        "branch.result_refused",
        {
          branch,
          job: `${run}.each.${index}.1`,
          attempt: 1,
          worker: "vm-1:42",
          status: "passed",
          reason: "attempt 1 no longer held the job",
        },
        0,
      );
    s.nodeStarted({ node: "verify", branch }, "agent");
    if (index === 1) s.check({ node: "verify", branch }, "grep-cited", false, { stdout_tail: "no match for foo()\n" });
    s.finished({ node: "verify", branch }, index === 0 ? "passed" : "failed", {
      qualifier: index === 0 ? "verified" : null,
      cause: index === 0 ? null : "check_failed",
      error: index === 0 ? undefined : "check grep-cited failed",
      cost_usd: 0.01,
      turns: 2,
      output: { verdict: index === 0 ? "CONFIRMED" : "REFUTED" },
    });
    s.ev("branch.finished", {
      branch,
      status: index === 0 ? "passed" : "failed",
      verdict: index === 0 ? "CONFIRMED" : "REFUTED",
      output: { verdict: "x" },
    });
  }
  s.finished({ node: "each" }, "failed", {
    qualifier: null,
    stop_reason: null,
    cause: "map_failed",
    error: "1 of 2 branches failed",
    output: { results: [], counts: {} },
  });
  s.ev("merge.conflict", { node: "integrate", attempt: 1, git_branch: "vouch/r/each/1/verify", from: "each#1", paths: ["src/a.ts"] });
  s.ev("repo.changed", { node: "integrate", attempt: 1, repo: "/home/me/project", changed: ["config", "refs/replace/abc added"] }, 0);
  s.ev("cap.overrun", { scope: "run", cap: "budget_usd", limit: 0.05, actual: 0.07 });
  s.ev("run.paused", { approvals: [{ node: "gate", prompt: "ship it?" }] });
  // Another process asked the run to stop (ADR 0062).
  s.ev(
    "run.cancel_requested",
    {
      request: 1,
      by: { user: "alice", host: "box", pid: 4242 },
      via: "command",
      requested_at: "2026-11-29T22:00:09.000Z",
    },
    0,
  );
  s.runFinished("failed", {
    cost_usd: 0.07,
    cost_unknown: 1,
    counts: { passed: 2, failed: 1, error: 0, skipped: 1, cancelled: 0 },
    output: { verdicts: [] },
  });
  return s;
}

/** `n` passed branch results as MapRunner writes them in a map's node.finished. */
export function mapResults(n: number) {
  return Array.from({ length: n }, (_, index) => ({
    index,
    item: `item-${index}`,
    status: "passed",
    output: "",
    error: null,
    verdict: null,
  }));
}

/** A run whose map `each` ended with `n` results: the longest event a run of `true` items writes. */
export function mapEndRun(run: string, n: number): { script: RunScript; finished: EventOf<"node.finished"> } {
  const s = new RunScript(run);
  s.started();
  s.nodeStarted({ node: "each" }, "map");
  const counts = { passed: n, failed: 0, error: 0, skipped: 0, cancelled: 0, recovered: 0 };
  const finished = s.finished({ node: "each" }, "passed", { output: { results: mapResults(n), counts } });
  return { script: s, finished };
}
