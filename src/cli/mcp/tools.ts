// The tools `vouch mcp serve` offers (ADR 0065), registered on the official SDK's
// McpServer with their input schemas. A tool that fails says why as an error
// result (the message and the hint vouch would print), never a stack trace.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { VouchError } from "../../engine/errors.ts";
import { sanitize } from "../../text/sanitize.ts";
import type { McpContext } from "./context.ts";
import { cancel, startRun, validateGraph } from "./tools-act.ts";
import {
  EVENTS_PAGE_MAX,
  listChecks,
  listRuns,
  runEvents,
  runReport,
  runStatus,
  showRun,
  WAIT_MAX_SECONDS,
  waitRun,
} from "./tools-read.ts";

type Result = { content: { type: "text"; text: string }[]; isError?: boolean; structuredContent?: Record<string, unknown> };

async function answer(work: () => unknown): Promise<Result> {
  try {
    const value = await work();
    if (typeof value === "string") return { content: [{ type: "text", text: value }] };
    const text = JSON.stringify(value, null, 2);
    return { content: [{ type: "text", text }], ...(Array.isArray(value) ? {} : { structuredContent: value as Record<string, unknown> }) };
  } catch (e) {
    const said =
      e instanceof VouchError
        ? `${e.message}${e.hint ? `\nhint: ${e.hint}` : ""}`
        : `internal error: ${(e as Error)?.message ?? String(e)}`;
    return { content: [{ type: "text", text: sanitize(said) }], isError: true };
  }
}

const run = z.string().min(1).max(200).describe("a run id, a unique prefix of one, or last");
const graphArgs = {
  path: z.string().max(4096).optional().describe("a graph file, relative to the server's root folder"),
  graph: z
    .string()
    .max(256 * 1024)
    .optional()
    .describe(
      "a graph's YAML text instead of a file: run as a planned graph (origin: planned: no commands of its own; checks from list_checks)",
    ),
};

export function registerTools(server: McpServer, ctx: McpContext): void {
  const tool = (name: string, description: string, inputSchema: Record<string, z.ZodType>, fn: (a: never) => unknown) =>
    server.registerTool(name, { description, inputSchema }, ((a: never) => answer(() => fn(a))) as never);

  tool(
    "validate_graph",
    "Validate a vouch graph (a file under the root, or YAML text as a planned graph): every problem as file:line:col.",
    graphArgs,
    (a: { path?: string; graph?: string }) => validateGraph(ctx, a),
  );
  tool(
    "start_run",
    "Start a run of a graph in the background and return its run id. The verdicts come from checks vouch runs itself. Approvals wait for a person (vouch approve); no tool decides them.",
    {
      ...graphArgs,
      inputs: z.record(z.string(), z.unknown()).optional().describe("the graph's inputs by name"),
      harness: z.string().optional().describe("the harness for every agent node (claude, codex, gemini, command, replay)"),
      wait_approvals: z.boolean().optional().describe("at an approval, wait for a person's vouch approve instead of pausing"),
    },
    (a: Parameters<typeof startRun>[1]) => startRun(ctx, a),
  );
  tool(
    "run_status",
    "A run's status: running, passed, failed, error, paused, interrupted; its counts, cost, and the approvals it waits on.",
    { run },
    (a: { run: string }) => runStatus(ctx, a.run),
  );
  tool(
    "run_events",
    `A run's events (docs/events.md) after a seq, at most ${EVENTS_PAGE_MAX} per call; page with next_after_seq.`,
    { run, after_seq: z.number().int().min(-1).optional(), limit: z.number().int().min(1).max(EVENTS_PAGE_MAX).optional() },
    (a: { run: string; after_seq?: number; limit?: number }) => runEvents(ctx, a.run, a.after_seq, a.limit),
  );
  tool(
    "wait_run",
    `Wait for a run to end, at most timeout_seconds (default 60, at most ${WAIT_MAX_SECONDS}); says whether it ended.`,
    { run, timeout_seconds: z.number().min(1).max(WAIT_MAX_SECONDS).optional() },
    (a: { run: string; timeout_seconds?: number }) => waitRun(ctx, a.run, a.timeout_seconds),
  );
  tool(
    "cancel_run",
    "Stop a running run as Ctrl-C would: it ends interrupted and can be resumed (vouch resume).",
    { run },
    (a: { run: string }) => cancel(ctx, a.run),
  );
  tool(
    "show_run",
    "What happened in a run, as vouch show prints it: each node's verdict, failed checks, overruns, cost.",
    { run },
    (a: { run: string }) => showRun(ctx, a.run),
  );
  tool("run_report", "A run's Markdown report (vouch report --format markdown).", { run }, (a: { run: string }) => runReport(ctx, a.run));
  tool("list_runs", "The recorded runs, newest first.", { limit: z.number().int().min(1).max(200).optional() }, (a: { limit?: number }) =>
    listRuns(ctx, a.limit),
  );
  tool(
    "list_checks",
    "The check library a graph passed as text may use (its checks_from), each check's name, command and description.",
    {},
    () => listChecks(ctx),
  );
}
