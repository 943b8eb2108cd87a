// What the codex and gemini contract tests share: a throwaway HOME pointing
// each CLI at its fake model server (and nowhere else), a one-node graph
// whose agent works in a fresh folder outside any git repository, the graph
// run through dist/vouch --json, and the CLI run directly on the command line
// vouch builds (for the fixture tests).
import { mkdirSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { VouchEvent } from "../../../src/engine/events.ts";
import { parseNdjson, vouch, type Ran } from "../../e2e/helpers.ts";
import { buildCodexCommand } from "../../../src/spawn/harness/codex/adapter.ts";
import { buildGeminiCommand } from "../../../src/spawn/harness/gemini/adapter.ts";
import { CLIS_BIN, systemPath } from "./clis.ts";
import { scratch } from "./home.ts";

/** A HOME whose codex config selects a provider at `baseUrl`, with codex's own retries off. */
export function codexHome(baseUrl: string): string {
  const home = scratch("codex-home");
  mkdirSync(join(home, ".codex"));
  writeFileSync(
    join(home, ".codex", "config.toml"),
    [
      'model = "fake-model"',
      'model_provider = "fake"',
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${baseUrl}"`,
      'env_key = "FAKE_OPENAI_KEY"',
      'wire_api = "responses"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "stream_idle_timeout_ms = 10000",
      "",
    ].join("\n"),
  );
  return home;
}

/** Gemini restarts itself in a child node with a bigger heap unless told not to:
 *  that doubles its start-up time and changes nothing a test looks at. */
export const GEMINI_FAST_ENV = { GEMINI_CLI_NO_RELAUNCH: "true" };

/** A HOME whose gemini settings select API-key auth (so GOOGLE_GEMINI_BASE_URL is used) and one attempt per request. */
export function geminiHome(): string {
  const home = scratch("gemini-home");
  mkdirSync(join(home, ".gemini"));
  // Update checks and usage statistics off: otherwise gemini looks up hosts on the network.
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    general: { maxAttempts: 1, enableAutoUpdate: false, enableAutoUpdateNotification: false },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
  };
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings));
  return home;
}

export interface NodeSpec {
  harness: "codex" | "gemini";
  prompt?: string;
  caps?: string; // YAML flow mapping, e.g. "{ turns: 3, wall: 60s }"
  format?: "text" | "json";
  permissionMode?: string;
  model?: string;
  cwd?: string;
}

/** A one-node graph in a fresh folder; the agent works in a fresh folder outside any git repository. */
export function oneNodeGraph(spec: NodeSpec): { graph: string; cwd: string } {
  const dir = scratch("graph");
  const cwd = spec.cwd ?? scratch("work");
  const lines = [
    "version: 1",
    "name: contract",
    "nodes:",
    "  ask:",
    "    kind: agent",
    `    harness: ${spec.harness}`,
    `    prompt: ${JSON.stringify(spec.prompt ?? "Say hello.")}`,
    `    cwd: ${JSON.stringify(cwd)}`,
    `    caps: ${spec.caps ?? "{ wall: 90s }"}`,
  ];
  if (spec.format) lines.push(`    output: { format: ${spec.format} }`);
  if (spec.permissionMode) lines.push(`    permission_mode: ${spec.permissionMode}`);
  if (spec.model) lines.push(`    model: ${spec.model}`);
  const graph = join(dir, "graph.yaml");
  writeFileSync(graph, `${lines.join("\n")}\n`);
  return { graph, cwd };
}

export interface Outcome extends Ran {
  events: VouchEvent[];
  node: Extract<VouchEvent, { type: "node.finished" }> | undefined;
  overruns: Extract<VouchEvent, { type: "cap.overrun" }>[];
}

/**
 * A TMPDIR for the agent that does not hold its HOME. codex will not create its
 * sandbox helper under the temp folder ("Refusing to create helper binaries under
 * temporary dir"): with HOME (so CODEX_HOME) under TMPDIR every sandboxed command
 * fails before it starts and shows no item, which is a test of its own
 * ("a HOME under the temp folder", codex.test.ts), never the default. Every
 * scratch folder is under the system's temp folder, so the agent gets another.
 */
export function agentTmpdir(home: string): string {
  const tmp = scratch("tmp");
  if (isUnder(home, tmp)) throw new Error(`HOME ${home} is under the agent's TMPDIR ${tmp}: codex's sandboxed commands would fail`);
  return tmp;
}

export function isUnder(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export interface ContractOptions {
  /** The agent's TMPDIR; default agentTmpdir(home), which never holds HOME. */
  tmpdir?: string;
  /** More vouch arguments (after `run GRAPH --json`). */
  args?: string[];
}

/** Runs `graph` through dist/vouch --json with the CLIs first on PATH and `env` passed to the agent. */
export async function runContract(graph: string, home: string, env: Record<string, string>, o: ContractOptions = {}): Promise<Outcome> {
  const ledger = scratch("ledger");
  const passEnv = Object.keys(env).flatMap((n) => ["--pass-env", n]);
  const ran = await vouch(["run", graph, "--json", ...passEnv, ...(o.args ?? [])], {
    home: ledger,
    env: { ...env, HOME: home, TMPDIR: o.tmpdir ?? agentTmpdir(home), PATH: `${CLIS_BIN}:${systemPath()}` },
  });
  const events = parseNdjson(ran.stdout);
  const node = events.find((e): e is Extract<VouchEvent, { type: "node.finished" }> => e.type === "node.finished");
  const overruns = events.filter((e): e is Extract<VouchEvent, { type: "cap.overrun" }> => e.type === "cap.overrun");
  return { ...ran, events, node, overruns };
}

/** Runs the CLI itself (not through vouch) on the command line vouch builds, in a fresh folder: what it prints. */
export async function rawRun(cli: "codex" | "gemini", base: string, prompt = "Say hello."): Promise<{ stdout: string; exit: number }> {
  const a = {
    runId: "r",
    node: "n",
    attempt: 1,
    harness: cli,
    prompt,
    cwd: scratch("raw-work"),
    passEnv: [],
    caps: {},
    output: { format: "text" as const },
  };
  const cmd = cli === "codex" ? buildCodexCommand(a) : buildGeminiCommand(a);
  const home = cli === "codex" ? codexHome(base) : geminiHome();
  const env =
    cli === "codex" ? { FAKE_OPENAI_KEY: "fake-key" } : { ...GEMINI_FAST_ENV, GEMINI_API_KEY: "fake-key", GOOGLE_GEMINI_BASE_URL: base };
  const p = Bun.spawn([join(CLIS_BIN, cmd.argv[0]!), ...cmd.argv.slice(1)], {
    cwd: a.cwd,
    env: { PATH: `${CLIS_BIN}:${systemPath()}`, HOME: home, TMPDIR: agentTmpdir(home), ...env },
    stdin: new Blob([cmd.stdin ?? ""]),
    stdout: "pipe",
    stderr: "ignore",
  });
  const [stdout, exit] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  return { stdout, exit };
}
