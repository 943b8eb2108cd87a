// `vouch approve RUN NODE [--note TEXT]` and `vouch reject RUN NODE [--note TEXT]`:
// decide an approval a run waits on, from another terminal (ADR 0062). A live run
// takes the decision within a poll (headless, it waits with --wait-approvals); a
// paused run takes it when resumed. Decisions are final: the first one recorded
// for an approval stands, and a second is refused naming it.
import { EXIT, UsageError } from "../engine/errors.ts";
import type { Decision } from "../engine/run/decisions.ts";
import { checkedLedgerHome, openLedger } from "../ledger/index.ts";
import { localTime } from "../text/clock.ts";
import { sanitize } from "../text/sanitize.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIO, Command } from "./io.ts";
import { recordedHome } from "./recorded-ledger.ts";
import { decideRun, type DecideOutcome } from "./remote/decide-run.ts";
import { byLine } from "./remote/requester.ts";
import { waitFlag } from "./wait-flag.ts";

/** Long enough for a live run to take the decision (a poll) and finish the node. */
export const DECIDE_WAIT_MS = 30_000;

export function decideCommand(decision: Decision): Command {
  const name = decision === "approve" ? "approve" : "reject";
  return async (args, io) => {
    const { values, positionals } = parseCommandArgs(name, args, { note: { type: "string" }, wait: { type: "string" } });
    if (positionals.length !== 2)
      throw new UsageError(
        `${name} takes a RUN and the approval NODE (got ${positionals.length} arguments)`,
        `usage: vouch ${name} RUN NODE [--note TEXT]`,
      );
    const [ref, node] = positionals as [string, string];
    const waitMs = waitFlag(values.wait, DECIDE_WAIT_MS);
    recordedHome(io, ref);
    const ledger = openLedger({ home: checkedLedgerHome(io.env, io.cwd), onNotice: io.err });
    try {
      const note = values.note;
      const o = await decideRun({ ledger, ref, node, decision, ...(note !== undefined ? { note } : {}), env: io.env, waitMs });
      return said(o, decision, io);
    } finally {
      ledger.close();
    }
  };
}

function said(o: DecideOutcome, decision: Decision, io: CliIO): number {
  const done = decision === "approve" ? "approved" : "rejected";
  const say = (text: string) => io.out(sanitize(`${text}\n`));
  switch (o.kind) {
    case "already": {
      const r = o.request;
      const what = r.decision === "approve" ? "approved" : "rejected";
      const text = `${o.path} was already ${what} by ${byLine(r)} at ${localTime(r.at)} in run ${o.runId}: the first decision stands`;
      if (r.decision === decision) {
        say(text);
        return EXIT.passed;
      }
      io.err(sanitize(`vouch: ${text}\nhint: to decide again, start a new run\n`));
      return EXIT.usage;
    }
    case "recorded":
      say(`${done} ${o.path} in run ${o.runId} (${o.status}): the run goes on with it when resumed: vouch resume ${o.runId}`);
      return EXIT.passed;
    case "taken":
      say(`${done} ${o.path} in run ${o.runId}: the node ${o.finished.status}${o.finished.qualifier ? ` (${o.finished.qualifier})` : ""}`);
      return EXIT.passed;
    case "pending":
      if (o.ended) {
        say(`${done} ${o.path} in run ${o.runId}: recorded; the run ended before it took it (vouch resume ${o.runId} goes on with it)`);
        return EXIT.passed;
      }
      say(`${done} ${o.path} in run ${o.runId}: recorded; the run has not taken it yet`);
      return EXIT.passed;
  }
}
