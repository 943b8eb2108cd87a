// `vouch doctor GRAPH` on an ACP agent (ADR 0080): the graph's own `acp.command`
// is started as a sitting would start it and asked ACP's `initialize` — no session
// is opened and no prompt sent, so no model is called. The reply says whether the
// program speaks ACP in that mode (a gemini without `--acp` never answers), which
// protocol version it speaks, who it says it is, and whether it can load a session
// (what resuming needs). Hand-written JSON-RPC, not the SDK: one request and one
// reply, and the SDK's zod stays unloaded. Like the CLI probes, it runs in a
// throwaway HOME with the providers' base URLs on a closed port.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runProcess } from "../process.ts";
import { findOnPath } from "./find-binary.ts";
import type { ProbeVerdict } from "./types.ts";
import { agentOf } from "./acp/agents.ts";
import { ACP_PROTOCOL_VERSION } from "./acp/conversation.ts";

export interface AcpProbeReport {
  check: "acp";
  command: string[];
  found: string | null;
  /** The tested agent this command line starts (acp/agents.ts), null for any other. */
  tested_agent: string | null;
  verdict: ProbeVerdict | "not_installed";
  detail: string;
  /** What its initialize reply said (each bounded and only when of the right type). */
  agent_name?: string;
  agent_version?: string;
  protocol_version?: number;
  load_session?: boolean;
}

/** How long an agent may take to answer initialize (an npx-started adapter installs first). */
export const ACP_PROBE_WALL_MS = 30_000;
const ID = 0;

/** Where the probes run: the PATH a program is found on, the folder a path in a command is taken
 *  from, the CLI probes' environment (closed base URLs), and how long an answer may take. */
export interface AcpProbeSetting {
  PATH?: string;
  cwd: string;
  probeEnv: Readonly<Record<string, string>>;
  wallMs?: number;
}

/** Probes each distinct command line once, in the order given. */
export async function probeAcpAgents(commands: readonly (readonly string[])[], env: AcpProbeSetting): Promise<AcpProbeReport[]> {
  const seen = new Map<string, readonly string[]>();
  for (const c of commands) if (c.length > 0) seen.set(JSON.stringify(c), c);
  const distinct = [...seen.values()];
  // A few at a time: a graph may name many agents, each a process (and an npx adapter an install).
  const reports: AcpProbeReport[] = new Array(distinct.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < distinct.length; i = next++) reports[i] = await probeOne(distinct[i]!, env);
  };
  await Promise.all(Array.from({ length: Math.min(PROBES_AT_ONCE, distinct.length) }, lane));
  return reports;
}

/** How many agents are probed at once. */
export const PROBES_AT_ONCE = 4;

async function probeOne(command: readonly string[], env: AcpProbeSetting): Promise<AcpProbeReport> {
  const program = command[0]!;
  // A path is taken from the current folder (where a shared-folder sitting starts); a name from PATH.
  const found = findOnPath(program.includes("/") ? resolve(env.cwd, program) : program, env.PATH);
  const base = { check: "acp" as const, command: [...command], found, tested_agent: agentOf(command)?.name ?? null };
  if (found === null) {
    const where = program.includes("/") ? `no executable file at ${resolve(env.cwd, program)}` : `${program} was not found on PATH`;
    return { ...base, verdict: "not_installed", detail: `${where}: a run of this graph would refuse to start` };
  }
  const home = mkdtempSync(join(tmpdir(), "vouch-doctor-acp-"));
  const stop = new AbortController();
  let reply: unknown;
  try {
    const wallMs = env.wallMs ?? ACP_PROBE_WALL_MS;
    const ran = await runProcess(
      { argv: [found, ...command.slice(1)] },
      {
        cwd: home,
        env: { PATH: env.PATH ?? "/usr/bin:/bin", HOME: home, ...env.probeEnv },
        wallMs,
        graceMs: 500,
        keepBytes: 16 * 1024,
        signal: stop.signal,
        conversation: (stdin) => stdin.write(`${JSON.stringify(initializeRequest())}\n`),
        onStdoutLine: (line) => {
          if (reply !== undefined) return;
          const message = parseReply(line);
          if (message === undefined) return;
          reply = message;
          stop.abort(); // answered: nothing more is asked (claude-code-acp does not exit by itself)
        },
      },
    );
    if (reply !== undefined) return { ...base, ...judgeReply(reply) };
    if (ran.terminationReason === "wall")
      return { ...base, verdict: "unknown", detail: `no answer to initialize within ${wallMs / 1000} s` };
    const said = (ran.stderrTail.trim() || ran.stdoutTail.trim()).slice(-300);
    const how = ran.spawnError ?? (ran.signal ? `killed by ${ran.signal}` : `exit ${ran.exit}`);
    return {
      ...base,
      verdict: "rejected",
      detail: `it never answered ACP's initialize (${how}): is it an ACP agent started in ACP mode (gemini --acp)?${said ? ` It said: ${said}` : ""}`,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function initializeRequest() {
  return {
    jsonrpc: "2.0",
    id: ID,
    method: "initialize",
    params: {
      protocolVersion: ACP_PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "vouch doctor", version: "1" },
    },
  };
}

/** The reply to our request (same id, a result or an error), else undefined (a notification, a log line). */
function parseReply(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{") || line.length > 1024 * 1024) return undefined;
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof m !== "object" || m === null || Array.isArray(m)) return undefined;
  const msg = m as Record<string, unknown>;
  return msg.id === ID && ("result" in msg || "error" in msg) ? msg : undefined;
}

const text = (v: unknown, max = 200): string | undefined => (typeof v === "string" ? v.slice(0, max) : undefined);
const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** An error reply without a message, said by its shape (its JSON could be 100,000 levels deep). */
function describeError(error: unknown): string {
  if (typeof error !== "object" || error === null) return `an error of ${JSON.stringify(typeof error)}`;
  const code = (error as Record<string, unknown>).code;
  return `an error${typeof code === "number" ? ` with code ${code}` : ""} and no message`;
}

/** What the reply says, and the verdict: a result in vouch's protocol version is accepted. */
export function judgeReply(msg: unknown): Omit<AcpProbeReport, "check" | "command" | "found" | "tested_agent"> {
  const m = record(msg);
  if ("error" in m) {
    const e = record(m.error);
    return { verdict: "rejected", detail: `it refused initialize: ${text(e.message, 300) ?? describeError(m.error)}` };
  }
  const r = record(m.result);
  const info = record(r.agentInfo);
  const facts = {
    ...(text(info.name) !== undefined ? { agent_name: text(info.name) } : {}),
    ...(text(info.version) !== undefined ? { agent_version: text(info.version) } : {}),
    ...(typeof r.protocolVersion === "number" ? { protocol_version: r.protocolVersion } : {}),
    ...(typeof record(r.agentCapabilities).loadSession === "boolean"
      ? { load_session: record(r.agentCapabilities).loadSession as boolean }
      : {}),
  };
  if (facts.protocol_version !== ACP_PROTOCOL_VERSION) {
    const said = facts.protocol_version === undefined ? "no protocol version" : `protocol version ${facts.protocol_version}`;
    return {
      ...facts,
      verdict: "rejected",
      detail: `it answered initialize with ${said}; vouch speaks ACP version ${ACP_PROTOCOL_VERSION}`,
    };
  }
  return { ...facts, verdict: "accepted", detail: "it answered initialize" };
}
