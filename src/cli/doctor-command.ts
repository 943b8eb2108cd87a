// `vouch doctor [GRAPH] [--json]`: for each agent CLI found on PATH, its version,
// whether vouch was tested with it, and whether its own argument parser
// accepts every command line vouch would send (doctor-probes.ts). No model is
// called: the probes run with an empty prompt, a throwaway HOME and base URLs
// on a closed local port. Exit 0 when every installed CLI accepts vouch's
// arguments, 1 when one rejects a flag, 3 when a probe could not tell.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXIT } from "../engine/errors.ts";
import { UsageError } from "../engine/errors.ts";
import { runProcess } from "../spawn/process.ts";
import { SandboxProbe } from "../spawn/sandbox/probe.ts";
import { installedVersion } from "../spawn/harness/cli-version.ts";
import { classifyProbe, doctorAdapter, DOCTOR_CLIS, PROBE_ENV, probeAssignments } from "../spawn/harness/doctor-probes.ts";
import { findOnPath } from "../spawn/harness/find-binary.ts";
import { describeDistance, testedWith, versionDistance, type VersionDistance } from "../spawn/harness/tested-versions.ts";
import type { ProbeVerdict } from "../spawn/harness/types.ts";
import type { HarnessName } from "../engine/ports.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIO, Command } from "./io.ts";
import { sanitize } from "../tui/text.ts";
import { probeAcpAgents, type AcpProbeReport } from "../spawn/harness/acp-probe.ts";
import { agentOf } from "../spawn/harness/acp/agents.ts";
import { readGraphFile } from "./graph-file.ts";
import { acpCommandsOf } from "./doctor-acp.ts";

export interface ProbeReport {
  argv: string[];
  /** The permission mode this command line carries, when it probes one. */
  permission_mode?: string;
  verdict: ProbeVerdict;
  detail: string;
}

export interface DoctorReport {
  harness: HarnessName;
  found: string | null;
  version: string | null;
  tested_version: string;
  tested: boolean | null;
  /** How far the installed version is from the tested one; null when either is unknown or no plain version. */
  distance: VersionDistance | null;
  /** accepted: every probe parsed; rejected: one was refused; unknown: could not tell; not_installed. */
  verdict: ProbeVerdict | "not_installed";
  probes: ProbeReport[];
}

const PROBE_WALL_MS = 60_000;

async function probe(cli: HarnessName, program: string, path: string | undefined): Promise<ProbeReport[]> {
  const home = mkdtempSync(join(tmpdir(), "vouch-doctor-"));
  try {
    const env = { PATH: path ?? "/usr/bin:/bin", HOME: home, ...PROBE_ENV };
    const runs = probeAssignments(cli, home).map(async (a, i) => {
      const { argv } = doctorAdapter(cli).buildCommand(a, {});
      const ran = await runProcess(
        { argv: [program, ...argv.slice(1)] },
        { cwd: home, env, stdin: "", wallMs: PROBE_WALL_MS, keepBytes: 16 * 1024 },
      );
      const { verdict, detail } =
        ran.terminationReason === "wall"
          ? { verdict: "unknown" as const, detail: `no answer within ${PROBE_WALL_MS / 1000} s` }
          : classifyProbe(cli, { exit: ran.exit, signal: ran.signal, stdout: ran.stdoutTail, stderr: ran.stderrTail });
      // The first command line carries every flag; the others differ only in their mode.
      return { argv, verdict, detail, ...(i > 0 && a.permissionMode ? { permission_mode: a.permissionMode } : {}) };
    });
    return await Promise.all(runs);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function overall(probes: ProbeReport[]): ProbeVerdict {
  if (probes.some((p) => p.verdict === "rejected")) return "rejected";
  if (probes.some((p) => p.verdict === "unknown")) return "unknown";
  return "accepted";
}

export async function doctorReports(env: CliIO["env"]): Promise<DoctorReport[]> {
  return Promise.all(
    DOCTOR_CLIS.map(async (cli) => {
      const adapter = doctorAdapter(cli);
      const found = findOnPath(adapter.binary, env.PATH);
      const base = { harness: cli, found, tested_version: adapter.testedVersion.version };
      if (!found) return { ...base, version: null, tested: null, distance: null, verdict: "not_installed" as const, probes: [] };
      const [{ version }, probes] = await Promise.all([installedVersion(cli, found, { PATH: env.PATH }), probe(cli, found, env.PATH)]);
      const distance = version === null ? null : versionDistance(version, base.tested_version);
      return { ...base, version, tested: testedWith(cli, version), distance, verdict: overall(probes), probes };
    }),
  );
}

/** What to do about a rejection: only some modes refused → those modes; otherwise the tested version. */
function rejectionHint(r: DoctorReport): string {
  const rejected = r.probes.filter((p) => p.verdict === "rejected");
  const modes = rejected.map((p) => p.permission_mode);
  if (modes.every((m) => m !== undefined))
    return `a run with permission_mode ${modes.join(", ")} would fail here; the other modes and flags are accepted`;
  if (r.tested === true)
    return `a run on ${r.harness} would fail: the tested version itself refuses the command line above here (see its message)`;
  return `a run on ${r.harness} would fail: install ${doctorAdapter(r.harness).testedVersion.package}@${r.tested_version}, or choose another harness`;
}

function text(reports: DoctorReport[]): string {
  const out: string[] = [];
  for (const r of reports) {
    if (r.verdict === "not_installed") {
      out.push(`${r.harness}: not installed (not found on PATH)`);
      continue;
    }
    const tested =
      r.tested === true
        ? "tested"
        : r.tested === false
          ? `NOT tested (vouch is tested with ${r.tested_version}${r.distance ? `; this is ${describeDistance(r.distance)}` : ""})`
          : `version unknown (vouch is tested with ${r.tested_version})`;
    out.push(`${r.harness} ${r.version ?? "?"} at ${r.found}: ${tested}`);
    for (const p of r.probes) {
      if (r.verdict === "accepted" && p.verdict === "accepted") continue;
      out.push(`  ${p.verdict}: ${p.argv.join(" ")}`);
      out.push(`    ${p.detail}`);
    }
    if (r.verdict === "accepted") out.push(`  accepts all ${r.probes.length} command lines vouch sends it`);
    if (r.verdict === "rejected") out.push(`  ${rejectionHint(r)}`);
  }
  return out.join("\n");
}

/** Whether sealing works here (ADR 0040): the probe every run makes. Informational: it changes
 *  no exit code (sandbox: auto runs unsealed where it does not work, and says so). */
export interface SandboxReport {
  check: "sandbox";
  verdict: "available" | "unavailable";
  program: string | null;
  version: string | null;
  reason?: string;
  hint?: string;
}

async function sandboxReport(env: CliIO["env"]): Promise<SandboxReport> {
  const r = await new SandboxProbe({ ...env }).check();
  if (r.available) return { check: "sandbox", verdict: "available", program: r.program, version: r.version };
  return { check: "sandbox", verdict: "unavailable", program: r.program ?? null, version: null, reason: r.reason, hint: r.hint };
}

function sandboxText(s: SandboxReport): string {
  if (s.verdict === "available") return `sandbox: sealing works here (${s.version ?? "bubblewrap"} at ${s.program})`;
  return `sandbox: sealing does NOT work here: ${s.reason}\n  ${s.hint}\n  sittings run unsealed with a warning (sandbox: auto); sandbox: required refuses to start`;
}

/** The ACP agents a graph names (ADR 0080); none without a graph. Read synchronously: a bad
 *  graph is a usage error (exit 2) before any probe starts. */
function acpCommands(graphPath: string | undefined, io: CliIO): string[][] {
  if (graphPath === undefined) return [];
  const tree = readGraphFile(graphPath, io.cwd, io.env);
  return acpCommandsOf([tree.graph, ...tree.subgraphs.values()]);
}

function acpText(r: AcpProbeReport): string {
  const head = `acp ${r.command.join(" ")}`;
  if (r.verdict !== "accepted") return `${head}: ${r.verdict === "not_installed" ? "not installed" : r.verdict}\n  ${r.detail}`;
  const who = [r.agent_name, r.agent_version].filter((x) => x !== undefined).join(" ") || "an agent that gives no name";
  const tested =
    r.tested_agent !== null ? `a tested agent (${r.tested_agent})` : "NOT a tested agent: only the wall and idle caps are kept";
  const load = resumeText(r);
  return `${head} at ${r.found}: answers ACP ${r.protocol_version}: ${who}; ${tested}; ${load}`;
}

/** What a resumed sitting on this agent gets: a tested agent's measured answer wins over what it offers. */
function resumeText(r: AcpProbeReport): string {
  const tested = agentOf(r.command);
  if (tested !== undefined && !tested.sessions.resume)
    return r.load_session === true
      ? "offers session/load, but vouch refuses resuming it (measured: it does not find its own sessions)"
      : "vouch refuses resuming it";
  return r.load_session === true ? "can load a session (resume works)" : "cannot load a session (resuming it is refused)";
}

const doctorCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("doctor", args, { json: { type: "boolean" } });
  if (positionals.length > 1)
    throw new UsageError(`doctor takes at most one graph file (got "${positionals[1]}" too)`, "see: vouch doctor --help");
  const commands = acpCommands(positionals[0], io);
  const [reports, sandbox, agents] = await Promise.all([
    doctorReports(io.env),
    sandboxReport(io.env),
    probeAcpAgents(commands, { PATH: io.env.PATH, cwd: io.cwd, probeEnv: PROBE_ENV }),
  ]);
  // --json: the harnesses' reports, then the sandbox's (the one element with `check`), then the graph's ACP agents.
  const acpLines = agents.map(acpText);
  io.out(
    values.json
      ? `${JSON.stringify([...reports, sandbox, ...agents])}\n`
      : sanitize(`${text(reports)}\n${sandboxText(sandbox)}\n${acpLines.map((l) => `${l}\n`).join("")}`),
  );
  if (reports.some((r) => r.verdict === "rejected") || agents.some((a) => a.verdict === "rejected" || a.verdict === "not_installed"))
    return EXIT.failed;
  if (reports.some((r) => r.verdict === "unknown") || agents.some((a) => a.verdict === "unknown")) return EXIT.error;
  return EXIT.passed;
};
export default doctorCommand;
