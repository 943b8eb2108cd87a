// The runners of a traced session (ADR 0059): the same ports, with each child's TRACEPARENT
// handed over as one of the variables the engine already passes (CommandContext.vars,
// AgentAssignment.vars), so the spawn seam needs no tracing of its own.
import type { AgentRunner, CommandRunner } from "../engine/ports.ts";
import type { ChildTrace } from "./child-trace.ts";

export function tracedCommands<R extends CommandRunner & { close(): Promise<void> }>(inner: R, trace: ChildTrace): R {
  return {
    ...inner,
    close: () => inner.close(),
    runCheck: (check, ctx) =>
      inner.runCheck(check, {
        ...ctx,
        vars: {
          ...ctx.vars,
          ...trace({ node: ctx.node, attempt: ctx.attempt, check: check.name, ...(ctx.branch ? { branch: ctx.branch } : {}) }),
        },
      }),
    runScript: (script, ctx) =>
      inner.runScript(script, {
        ...ctx,
        vars: { ...ctx.vars, ...trace({ node: ctx.node, attempt: ctx.attempt, ...(ctx.branch ? { branch: ctx.branch } : {}) }) },
      }),
  };
}

export function tracedAgents(inner: AgentRunner, trace: ChildTrace): AgentRunner {
  return {
    refuse: (plan) => inner.refuse(plan),
    run: (a, hooks) =>
      inner.run(
        { ...a, vars: { ...a.vars, ...trace({ node: a.node, attempt: a.attempt, ...(a.branch ? { branch: a.branch } : {}) }) } },
        hooks,
      ),
  };
}
