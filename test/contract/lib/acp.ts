// What the ACP contract tests share (ADR 0051): a graph around one `harness: acp`
// node, the environment that points each tested agent at its fake model server,
// dist/vouch run with the agents first on PATH (events read as they come, so a
// test can interrupt the run at a moment the events show), and the processes
// still working in a folder (none may outlive a sitting).
import { readdirSync, readlinkSync } from "node:fs";
import type { EventOf, VouchEvent } from "../../../src/engine/events.ts";
import { BINARY, ensureBinary } from "../../graph/binary.ts";
import { eventSchema } from "../../../src/engine/events.ts";
import type { FakeAnthropic } from "../servers/anthropic.ts";
import { claudeEnv } from "./claude.ts";
import { GEMINI_FAST_ENV, agentTmpdir } from "./codex-gemini.ts";
import { throwawayHome, type ThrowawayHome } from "./home.ts";
import { contractPath, type ContractResult } from "./run.ts";

export type AcpAgentName = "gemini" | "claude-code-acp";
export const ACP_COMMANDS: Record<AcpAgentName, string[]> = { gemini: ["gemini", "--acp"], "claude-code-acp": ["claude-code-acp"] };

export interface AcpNode {
  agent: AcpAgentName;
  /** The agent's folder (absolute): the throwaway home's work folder. */
  cwd: string;
  prompt?: string;
  caps?: string;
  permissionMode?: string;
  worktree?: boolean;
}

export function acpGraph(n: AcpNode): string {
  const lines = [
    "version: 1",
    "name: acp-contract",
    "nodes:",
    "  ask:",
    "    kind: agent",
    "    harness: acp",
    `    acp: { command: ${JSON.stringify(ACP_COMMANDS[n.agent])} }`,
    `    prompt: ${JSON.stringify(n.prompt ?? "Say hello.")}`,
    `    cwd: ${JSON.stringify(n.cwd)}`,
    `    caps: ${n.caps ?? "{ wall: 90s }"}`,
  ];
  if (n.permissionMode) lines.push(`    permission_mode: ${n.permissionMode}`);
  if (n.worktree) lines.push("    workspace: { mode: worktree }");
  return `${lines.join("\n")}\n`;
}

/** A throwaway world for one agent; gemini's HOME selects API-key auth (as for the gemini harness). */
export function acpHome(agent: AcpAgentName, git = false): ThrowawayHome {
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    general: { maxAttempts: 1, enableAutoUpdate: false, enableAutoUpdateNotification: false },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
  };
  const home = throwawayHome(`acp-${agent}`, {
    ...(agent === "gemini" ? { homeFiles: { ".gemini/settings.json": JSON.stringify(settings) } } : {}),
    ...(git ? { git: true, workFiles: { "README.md": "# a repository for the agent\n" } } : {}),
  });
  if (git) {
    const run = (args: string[]) => Bun.spawnSync(["git", ...args], { cwd: home.work, stdout: "ignore", stderr: "pipe" });
    run(["add", "README.md"]);
    run(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base"]);
  }
  return home;
}

export const geminiAcpEnv = (base: string): Record<string, string> => ({
  ...GEMINI_FAST_ENV,
  GEMINI_API_KEY: "fake-key",
  GOOGLE_GEMINI_BASE_URL: base,
});
export const claudeAcpEnv = (server: FakeAnthropic): Record<string, string> => claudeEnv(server);

export interface AcpRun {
  home: ThrowawayHome;
  graph: string;
  env: Record<string, string>;
  args?: string[];
  /** Sees each event as it arrives; true sends vouch SIGINT once (Ctrl-C in the middle of a sitting). */
  interruptWhen?: (e: VouchEvent) => boolean;
  /** A backstop so a hung agent cannot hang the suite (default 150 s). */
  killAfterMs?: number;
}

export async function runAcp(r: AcpRun): Promise<ContractResult> {
  ensureBinary();
  const graphPath = `${r.home.root}/graph.yaml`;
  await Bun.write(graphPath, r.graph);
  const passEnv = Object.keys(r.env).flatMap((name) => ["--pass-env", name]);
  const env = {
    PATH: contractPath(),
    HOME: r.home.home,
    TMPDIR: agentTmpdir(r.home.home),
    TZ: "UTC",
    VOUCH_HOME: r.home.vouchHome,
    ...r.env,
  };
  const p = Bun.spawn([BINARY, "run", graphPath, "--json", ...passEnv, ...(r.args ?? [])], {
    cwd: r.home.work,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => p.kill("SIGKILL"), r.killAfterMs ?? 150_000);
  const events: VouchEvent[] = [];
  let interrupted = false;
  let pending = "";
  const decoder = new TextDecoder();
  const stderr = new Response(p.stderr).text();
  for await (const chunk of p.stdout) {
    const lines = (pending + decoder.decode(chunk, { stream: true })).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const e = eventSchema.parse(JSON.parse(line));
      events.push(e);
      if (!interrupted && r.interruptWhen?.(e)) {
        interrupted = true;
        p.kill("SIGINT");
      }
    }
  }
  const code = await p.exited;
  clearTimeout(timer);
  const err = await stderr;
  const of = <T extends VouchEvent["type"]>(type: T) => events.filter((x): x is EventOf<T> => x.type === type);
  return {
    code,
    stdout: "",
    stderr: err,
    events,
    finished(node) {
      const e = of("node.finished").find((x) => x.node === node);
      if (!e) throw new Error(`no node.finished for ${node}; exit ${code}; stderr: ${err.slice(-800)}`);
      return e;
    },
    overruns: () => of("cap.overrun"),
    progress: (node) => of("node.progress").filter((x) => x.node === node),
    run() {
      const e = of("run.finished")[0];
      if (!e) throw new Error(`no run.finished; exit ${code}; stderr: ${err.slice(-800)}`);
      return e;
    },
  };
}

/** Processes (other than this one) whose working directory is `dir` or below: what a sitting left running there. */
export function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** The processes still in `dir` once those already killed have had up to `ms` to die (a SIGKILLed
 *  process lingers a moment before it is gone); on main a stray shell ran on for a minute. */
export async function leftIn(dir: string, ms = 5_000): Promise<number[]> {
  const until = Date.now() + ms;
  let left = processesIn(dir);
  while (left.length > 0 && Date.now() < until) {
    await Bun.sleep(50);
    left = processesIn(dir);
  }
  return left;
}
