// The real claude (the version clis/package.json pins) as an MCP client of
// `dist/vouch mcp serve` (ADR 0065, docs/mcp.md): claude is given the server with
// --mcp-config, and the fake Anthropic server plays the model, calling vouch's
// tools in turn. Through them a verified run is started, awaited and reported; a
// planned graph carrying a command is refused with the reason; a path outside the
// root is refused. What the tools answered is read back from the requests claude
// sent the model (each tool_result), and the ledger is read with dist/vouch.
import { expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeCli } from "./lib/skip.ts";
import { claudeEnv } from "./lib/claude.ts";
import { cliPath } from "./lib/clis.ts";
import { throwawayHome } from "./lib/home.ts";
import { contractPath } from "./lib/run.ts";
import { startFakeAnthropic, text, toolUse, type Reply } from "./servers/anthropic.ts";
import { MODEL } from "./claude-pricing.ts";
import { BINARY, ensureBinary } from "../graph/binary.ts";
import { claudeConfig } from "./lib/mcp-docs.ts";
import { mcpWorld, PLANNED_COMMAND } from "../e2e/mcp-helpers.ts";
import { vouch } from "../e2e/helpers.ts";

const TIMEOUT = 150_000;
const TOOLS = [
  "start_run",
  "wait_run",
  "run_report",
  "run_status",
  "validate_graph",
  "list_runs",
  "list_checks",
  "show_run",
  "run_events",
  "cancel_run",
];
const RUN_ID = /\d{8}-\d{6}-[0-9a-f]{6}/;

interface Block {
  type: string;
  text?: string;
  content?: string | { type: string; text?: string }[];
}

/** The tool results claude has sent so far, oldest first, as text. */
function toolResults(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const m of (body.messages ?? []) as { role: string; content: string | Block[] }[]) {
    if (typeof m.content === "string") continue;
    for (const b of m.content) {
      if (b.type !== "tool_result") continue;
      out.push(typeof b.content === "string" ? b.content : (b.content ?? []).map((c) => c.text ?? "").join("\n"));
    }
  }
  return out;
}

const call = (name: string, input: Record<string, unknown>): Reply => ({
  kind: "message",
  blocks: [text(`Calling ${name}.`), toolUse(`mcp__vouch__${name}`, input)],
});

describeCli("claude", "claude as the MCP client of vouch mcp serve (issue 31)", () => {
  it("a verified run started, awaited and reported; a planned graph with a command and a path outside the root refused", {
    timeout: TIMEOUT,
  }, async () => {
    await ensureBinary();
    const home = throwawayHome("mcp");
    const w = mcpWorld(home.root);
    let runId = "";
    // The model: one tool call per turn, each chosen from what the tools answered before.
    const server = startFakeAnthropic((_n, body) => {
      const tools = ((body.tools ?? []) as { name: string }[]).map((t) => t.name);
      if (!tools.includes("mcp__vouch__start_run")) return { kind: "message", blocks: [text("ok")] }; // a side call
      const results = toolResults(body);
      if (results.length === 1) runId = RUN_ID.exec(results[0]!)?.[0] ?? "none";
      switch (results.length) {
        case 0:
          return call("start_run", { path: "ok.yaml" });
        case 1:
          return call("wait_run", { run: runId, timeout_seconds: 60 });
        case 2:
          return call("run_report", { run: runId });
        case 3:
          return call("start_run", { graph: PLANNED_COMMAND });
        case 4:
          return call("start_run", { path: "../outside/secret.yaml" });
        default:
          return { kind: "message", blocks: [text("The run passed, verified; the other two were refused.")] };
      }
    });
    try {
      const config = join(home.root, "mcp.json");
      // docs/mcp.md's Claude Code configuration, with this test's binary and root.
      const documented = claudeConfig(w.root);
      expect(documented.mcpServers.vouch).toMatchObject({ command: BINARY, args: ["mcp", "serve", "--root", w.root] });
      writeFileSync(config, JSON.stringify(documented));
      const argv = [
        cliPath("claude"),
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        `--model=${MODEL}`,
        `--mcp-config=${config}`,
        "--strict-mcp-config",
        "--setting-sources=",
        `--allowedTools=${TOOLS.map((t) => `mcp__vouch__${t}`).join(",")}`,
      ];
      const p = Bun.spawn(argv, {
        cwd: w.root,
        // Tool search off: claude lists the MCP tools in the request instead of behind ToolSearch.
        env: { PATH: contractPath(), HOME: home.home, TZ: "UTC", ENABLE_TOOL_SEARCH: "false", ...claudeEnv(server) },
        stdin: new Blob(["Run ok.yaml with vouch and tell me the verdict."]),
        stdout: "pipe",
        stderr: "pipe",
      });
      const backstop = setTimeout(() => p.kill("SIGTERM"), TIMEOUT - 20_000);
      const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      clearTimeout(backstop);
      expect(code, `${err}\n${out.slice(-2000)}`).toBe(0);

      // claude was given vouch's tools, and none that decides an approval.
      const asked = server.requests.find((r) =>
        ((r.body.tools ?? []) as { name: string }[]).some((t) => t.name === "mcp__vouch__start_run"),
      )!;
      const names = ((asked.body.tools ?? []) as { name: string }[]).map((t) => t.name).filter((n) => n.startsWith("mcp__vouch__"));
      expect(names.sort()).toEqual(TOOLS.map((t) => `mcp__vouch__${t}`).sort());

      const last = server.requests[server.requests.length - 1]!;
      const results = toolResults(last.body);
      expect(results).toHaveLength(5);
      const [started, waited, report, planned, outside] = results as [string, string, string, string, string];
      expect(started).toMatch(RUN_ID);
      // claude hands the model the structured result (compact JSON) or the text: either spacing.
      expect(started).toMatch(/"status":\s*"running"/);
      expect(waited).toMatch(/"status":\s*"passed"/);
      expect(waited).toMatch(/"exit_code":\s*0/);
      expect(report).toContain("vouch: `ok` passed (exit 0)");
      expect(report).toMatch(/\| make \| ✅ passed \| verified \|/);
      expect(planned).toContain("the graph is refused: it is a planned graph (origin: planned)");
      expect(planned).toContain("run: commands are refused in a planned graph");
      expect(outside).toContain("graph file ../outside/secret.yaml is outside the server's root");
      expect(out).toContain("The run passed, verified");

      // The ledger holds that one run, passed, as dist/vouch shows it.
      const runs = JSON.parse((await vouch(["runs", "--json"], { home: w.home, cwd: w.root })).stdout) as { id: string; status: string }[];
      expect(runs.map((r) => [r.id, r.status])).toEqual([[runId, "passed"]]);
    } finally {
      await server.stop();
      home.cleanup();
    }
  });
});
