// Runs one sitting for the conformance kit: a scenario played by the stub
// executables (first on PATH) or, for replay, by a fixture written for it.
// Never a real model: the PATH handed to children starts with the stubs.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentRunner } from "../../../src/spawn/harness/agent-runner.ts";
import type { BackstopMargins } from "../../../src/spawn/harness/overruns.ts";
import type { HarnessAdapter, HarnessDescriptor } from "../../../src/spawn/harness/types.ts";
import type { AgentAssignment, AgentRunner, HarnessName, Sitting, SittingCaps, SittingProgress } from "../../../src/engine/ports.ts";
import { STUBS } from "../helpers.ts";
import { writeReplayScenario } from "./kit-fixtures.ts";

export type Scenario = "success" | "garbage" | "cut" | "hang" | "grandchild" | "flood";

/** What the kit checks. `adapter` replaces the real one (a test double). */
export interface KitSubject {
  label: string;
  harness: HarnessName;
  descriptor: HarnessDescriptor;
  adapter?: HarnessAdapter;
  /** harness acp: the agent's command line (a stub on PATH, test/stubs/harness/). */
  acpCommand?: string[];
}

/** Model text, shell metacharacters, quotes, a leading dash, non-ASCII: it must arrive byte for byte. */
export const KIT_PROMPT = "--help\n$(touch /tmp/vouch-kit-pwned) `id` 'single' \"double\" ünïcødé ✓\n-leading dash; exit 3";
export const KIT_NODE = "kit_node";
const STUB_VARS = [
  "STUB_SCENARIO",
  "STUB_TURNS",
  "STUB_TURN_MS",
  "STUB_TURN_COST",
  "STUB_IGNORE_TERM",
  "STUB_FLOOD_MB",
  "STUB_MARKER",
  "STUB_EXIT",
];

export interface SitOptions {
  caps?: SittingCaps;
  model?: string;
  tools?: string[];
  permissionMode?: string;
  prompt?: string;
  stub?: Record<string, string>;
  backstop?: BackstopMargins | null;
  graceMs?: number;
  /** Children find nothing on PATH (the missing-binary case). */
  emptyPath?: boolean;
  cancelAfterMs?: number;
  /** The kit's own limit: a sitting still running after this is cancelled and reported. */
  safetyMs?: number;
}

export interface SitResult {
  sitting: Sitting;
  progress: SittingProgress[];
  /** Whether the stub executable was started (it writes a marker file). */
  started: boolean;
  /** The kit had to cancel a sitting nothing else stopped. */
  safetyFired: boolean;
  elapsedMs: number;
}

export const isProcessHarness = (s: KitSubject) => s.harness !== "replay";

/** One empty folder for the whole kit: a PATH with nothing on it, a replay folder with no fixtures. */
let emptyDir: string | undefined;
const empty = () => (emptyDir ??= mkdtempSync(join(tmpdir(), "vouch-kit-empty-")));

export function kitRunner(
  subject: KitSubject,
  opts: SitOptions & { replayDir?: string; replayDelayMs?: number; markerFile?: string } = {},
): AgentRunner {
  const parentEnv: Record<string, string | undefined> = {
    PATH: opts.emptyPath ? empty() : `${STUBS}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: process.env.HOME,
    ...(opts.markerFile ? { STUB_MARKER: opts.markerFile } : {}),
    ...opts.stub,
  };
  const commandArgv = [opts.emptyPath ? "kit-missing-program" : join(STUBS, "agent-cmd")];
  return createAgentRunner({
    parentEnv,
    commandArgv,
    replayDir: opts.replayDir ?? empty(),
    replayDelayMs: opts.replayDelayMs ?? 0,
    ...(opts.backstop !== undefined ? { backstop: opts.backstop } : {}),
    graceMs: opts.graceMs ?? 300,
    ...(subject.adapter && subject.harness !== "replay" ? { adapters: { [subject.harness]: subject.adapter } } : {}),
  });
}

export function kitAssignment(subject: KitSubject, cwd: string, opts: SitOptions): AgentAssignment {
  const a: AgentAssignment = {
    runId: "kit",
    node: KIT_NODE,
    attempt: 1,
    harness: subject.harness,
    prompt: opts.prompt ?? KIT_PROMPT,
    cwd,
    passEnv: STUB_VARS,
    caps: opts.caps ?? {},
    output: { format: "text" },
  };
  if (subject.acpCommand) a.acp = { command: subject.acpCommand };
  if (opts.model !== undefined) a.model = opts.model;
  if (opts.tools !== undefined) a.tools = opts.tools;
  if (opts.permissionMode !== undefined) a.permissionMode = opts.permissionMode;
  return a;
}

export async function sit(subject: KitSubject, scenario: Scenario, opts: SitOptions = {}): Promise<SitResult> {
  const work = mkdtempSync(join(tmpdir(), "vouch-kit-"));
  const markerFile = join(work, "started.marker");
  const stub = { STUB_SCENARIO: scenario, ...opts.stub };
  let replayDelayMs = 0;
  let replayDir: string | undefined;
  if (subject.harness === "replay") {
    replayDir = join(work, "fixtures");
    replayDelayMs = writeReplayScenario(replayDir, KIT_NODE, scenario, opts.prompt ?? KIT_PROMPT, stub);
  }
  const runner = kitRunner(subject, { ...opts, stub, markerFile, replayDelayMs, ...(replayDir ? { replayDir } : {}) });
  const controller = new AbortController();
  let safetyFired = false;
  const safety = setTimeout(() => {
    safetyFired = true;
    controller.abort();
  }, opts.safetyMs ?? 12_000);
  const cancel = opts.cancelAfterMs !== undefined ? setTimeout(() => controller.abort(), opts.cancelAfterMs) : undefined;
  const progress: SittingProgress[] = [];
  const started = performance.now();
  try {
    const sitting = await runner.run(kitAssignment(subject, work, opts), {
      signal: controller.signal,
      onProgress: (p) => progress.push({ ...p }),
    });
    return { sitting, progress, started: existsSync(markerFile), safetyFired, elapsedMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(safety);
    if (cancel) clearTimeout(cancel);
    rmSync(work, { recursive: true, force: true });
  }
}

/** The echo a stub prints as its result: what it received. */
export interface StubEcho {
  harness: string;
  prompt: string;
  model: string | null;
  tools: string[] | null;
  /** The tools that exist at all (--tools), when the harness restricts them. */
  available: string[] | null;
  permissionMode: string | null;
  argv: string[];
}

export function readEcho(resultText: string): StubEcho | null {
  try {
    return JSON.parse(resultText) as StubEcho;
  } catch {
    return null;
  }
}
