// `vouch mcp serve` (ADR 0065): the official SDK's McpServer on stdin/stdout. Until
// the client closes stdin: then the runs it started are stopped (they end
// interrupted, resumable) and the server ends.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ProcessSupervisor } from "../../spawn/process-registry.ts";
import { version } from "../version.ts";
import type { McpContext } from "./context.ts";
import { McpRuns } from "./runs.ts";
import type { Root } from "./root.ts";
import { registerTools } from "./tools.ts";

const STOP_SIGNALS: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];

export interface ServeSpec {
  root: Root;
  home: string;
  library: string[];
  env: Record<string, string | undefined>;
  passEnv: string[];
  /** Said on stderr (stdout is the protocol's). */
  say(line: string): void;
}

export async function serve(spec: ServeSpec): Promise<number> {
  const runs = new McpRuns({
    root: spec.root.real,
    home: spec.home,
    env: spec.env,
    passEnv: spec.passEnv,
    supervisor: new ProcessSupervisor(),
  });
  const ctx: McpContext = { root: spec.root, home: spec.home, library: spec.library, env: spec.env, runs };
  const server = new McpServer({ name: "vouch", version });
  registerTools(server, ctx);
  const transport = new StdioServerTransport();
  // The client closes stdin; an MCP client that does not see the server end soon sends
  // SIGTERM (the SDK's after 2 s): either way the runs are stopped gracefully first.
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
    for (const s of STOP_SIGNALS) process.once(s, () => resolve());
  });
  await server.connect(transport);
  spec.say(`vouch mcp: serving on stdio (root ${spec.root.path}, ledger ${spec.home})\n`);
  await closed;
  await runs.stopAll();
  await server.close().catch(() => {});
  return 0;
}
