// What a node runs with once defaults and command-line overrides are applied.
// `defaults` are inherited by agent nodes (docs/graph-language.md); scripts inherit only
// `cwd` and `env` (ADR 0006), so a script runs where the agents work.
import { defaultedCaps, mergeCaps, toSittingCaps } from "../caps.ts";
import { DEFAULT_HARNESS, type AgentNode, type GraphFile, type Retry, type ScriptNode } from "../graph/schema.ts";
import type { HarnessName, SittingCaps } from "../ports.ts";
import { sandboxModeOf, type SandboxMode } from "../sandbox.ts";

export const DEFAULT_CONCURRENCY = 4;

export interface AgentSettings {
  harness: HarnessName;
  /** harness acp: the agent's command line (ADR 0051). */
  acp?: { command: string[] };
  caps: SittingCaps;
  /** The caps that came from the defaults (DEFAULT_SITTING_CAPS), not from the graph. */
  defaultedCaps: ("wall" | "idle")[];
  model?: string;
  tools?: string[];
  permissionMode?: string;
  /** A template, rendered per sitting; absent = the base directory. */
  cwd?: string;
  passEnv: string[];
  retry?: Retry;
}

export interface SettingsOverrides {
  harness?: HarnessName;
  passEnv?: string[];
  /** --sandbox: for nodes whose graph says nothing. */
  sandbox?: SandboxMode;
}

/** How a node's processes are sealed (ADR 0040): its own setting, else the graph's defaults (scripts
 *  too: sealing is no workspace setting), else the run's --sandbox, else auto; network on unless said. */
export interface SealSettings {
  sandbox: SandboxMode;
  network: boolean;
}

export function sealSettings(graph: GraphFile, node: AgentNode | ScriptNode, o: SettingsOverrides): SealSettings {
  const d = graph.defaults ?? {};
  return { sandbox: sandboxModeOf(node.sandbox, d.sandbox, o.sandbox), network: node.network ?? d.network ?? true };
}

function names(...lists: (string[] | undefined)[]): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

export function agentSettings(graph: GraphFile, node: AgentNode, o: SettingsOverrides): AgentSettings {
  const d = graph.defaults ?? {};
  const caps = mergeCaps(d.caps, node.caps);
  const s: AgentSettings = {
    harness: o.harness ?? node.harness ?? d.harness ?? DEFAULT_HARNESS,
    caps: toSittingCaps(caps),
    defaultedCaps: defaultedCaps(caps),
    passEnv: names(d.env, node.env, o.passEnv),
  };
  const acp = node.acp ?? d.acp;
  if (acp !== undefined) s.acp = { command: [...acp.command] };
  const model = node.model ?? d.model;
  if (model !== undefined) s.model = model;
  const tools = node.tools ?? d.tools;
  if (tools !== undefined) s.tools = tools;
  const pm = node.permission_mode ?? d.permission_mode;
  if (pm !== undefined) s.permissionMode = pm;
  const cwd = node.cwd ?? d.cwd;
  if (cwd !== undefined) s.cwd = cwd;
  const retry = node.retry ?? d.retry;
  if (retry !== undefined) s.retry = retry;
  return s;
}

export interface ScriptSettings {
  cwd?: string;
  passEnv: string[];
}

export function scriptSettings(graph: GraphFile, node: ScriptNode, o: SettingsOverrides): ScriptSettings {
  const d = graph.defaults ?? {};
  const s: ScriptSettings = { passEnv: names(d.env, node.env, o.passEnv) };
  const cwd = node.cwd ?? d.cwd;
  if (cwd !== undefined) s.cwd = cwd;
  return s;
}
