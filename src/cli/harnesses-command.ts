// `vouch harnesses [--json]`: the harness adapters, how each keeps every cap,
// whether it honours model/tools/permission mode, whether its program is on
// PATH (looked up in the file system), and for the agent CLIs the installed
// version against the one vouch is tested with (tested-versions.ts). Every
// fact comes from the harness's adapter, in the registry's order.
import { CAP_NAMES } from "../engine/events.ts";
import { UsageError } from "../engine/errors.ts";
import { findOnPath } from "../spawn/harness/find-binary.ts";
import { HARNESSES } from "../spawn/harness/registry.ts";
import { installedVersion, versionFromPackage } from "../spawn/harness/cli-version.ts";
import { testedWith } from "../spawn/harness/tested-versions.ts";
import type { HarnessAgent, HarnessDescriptor } from "../spawn/harness/types.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIO, Command } from "./io.ts";
import { sanitize } from "../tui/text.ts";

export interface HarnessReport {
  name: string;
  /** The program run, or null (replay runs none; command runs VOUCH_COMMAND). */
  program: string | null;
  /** Absolute path found on PATH, or null. */
  found: string | null;
  /** Why found is null, or how the harness runs without a program. */
  note: string | null;
  protocol: "json-stream" | "text";
  caps: HarnessDescriptor["guarantees"]["caps"];
  model: boolean;
  tools: boolean;
  permission_mode: boolean;
  permission_modes: string[] | null;
  /** True for replay: the settings are accepted but only a recording is played. */
  recorded: boolean;
  /** The installed version of an agent CLI; null when not installed, unknown, or not an agent CLI. */
  version: string | null;
  /** The version vouch is tested with (agent CLIs only). */
  tested_version: string | null;
  /** Whether the installed version is the tested one; null when either is unknown. */
  tested: boolean | null;
  /** A protocol harness's tested agents (acp), each with what vouch keeps of it (ADR 0051). */
  agents?: AgentReport[];
}

/** One agent of a protocol harness: the same facts as a harness, and the command line that starts it. */
export interface AgentReport extends Omit<HarnessReport, "agents" | "note" | "protocol" | "permission_modes" | "recorded"> {
  command: string[];
}

function agentReport(a: HarnessAgent, env: CliIO["env"]): AgentReport {
  const found = findOnPath(a.program, env.PATH);
  // An npm install says its version in its package.json (no process started).
  const version = found ? versionFromPackage(found, a.testedVersion.package) : null;
  return {
    name: a.name,
    program: a.program,
    command: [...a.command],
    found,
    caps: { ...a.guarantees.caps },
    model: a.guarantees.model,
    tools: a.guarantees.tools,
    permission_mode: a.guarantees.permissionMode,
    version,
    tested_version: a.testedVersion.version,
    tested: version === null ? null : version === a.testedVersion.version,
  };
}

export async function harnessReports(env: CliIO["env"]): Promise<HarnessReport[]> {
  return Promise.all(
    HARNESSES.map(async (h) => {
      const program = h.programFrom ? h.programFrom(env) : h.binary;
      const found = program ? findOnPath(program, env.PATH) : null;
      const note = program ? (found ? null : "not found on PATH") : (h.noProgram ?? null);
      const g = h.guarantees;
      const tested = h.testedVersion;
      const version = tested && found ? (await installedVersion(h.name, found, { PATH: env.PATH })).version : null;
      return {
        name: h.name,
        program,
        found,
        note,
        protocol: h.protocol,
        caps: { ...g.caps },
        model: g.model,
        tools: g.tools,
        permission_mode: g.permissionMode,
        permission_modes: h.permissionModes ? [...h.permissionModes] : null,
        recorded: h.recorded === true,
        version,
        tested_version: tested ? tested.version : null,
        tested: tested ? testedWith(h.name, version) : null,
        ...(h.agents ? { agents: h.agents.map((a) => agentReport(a, env)) } : {}),
      };
    }),
  );
}

function table(reports: HarnessReport[]): string {
  const honoured = (r: HarnessReport, b: boolean) => (r.recorded ? "recorded" : b ? "yes" : "no");
  const header = ["harness", "program", "installed", "version", "tested", ...CAP_NAMES, "model", "tools", "permission_mode"];
  const tested = (r: HarnessReport) =>
    r.tested === true
      ? "yes"
      : r.tested === false
        ? `no (tested: ${r.tested_version})`
        : r.tested_version
          ? `? (tested: ${r.tested_version})`
          : "-";
  const row = (r: HarnessReport, name: string) => [
    name,
    r.program ?? "-",
    r.found ?? r.note ?? "-",
    r.version ?? "-",
    tested(r),
    ...CAP_NAMES.map((c) => r.caps[c]),
    honoured(r, r.model),
    honoured(r, r.tools),
    honoured(r, r.permission_mode),
  ];
  // A protocol harness's row is any agent's; its tested agents follow, each with its own guarantees.
  const agentRow = (a: AgentReport, of: string) =>
    row({ ...a, note: null, protocol: "json-stream", permission_modes: null, recorded: false }, `${of}:${a.name}`);
  const rows = reports.flatMap((r) => [row(r, r.name), ...(r.agents ?? []).map((a) => agentRow(a, r.name))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const legend = [
    "",
    "native: the harness's own flag keeps the cap; supervised: vouch kills the process group (and the",
    "sitting's processes that left it: a session of their own, found by descent and by VOUCH_SITTING);",
    "observed: only noticed afterwards from the harness's report; none: refused before anything starts.",
    "recorded: accepted, but replay only plays what was recorded.",
    "tested: whether vouch was tested with the installed version; `vouch doctor` checks its arguments.",
    "acp: any agent that speaks ACP (acp.command in the graph); acp:NAME rows are the agents it is tested with.",
  ];
  return [line(header), ...rows.map(line), ...legend].join("\n");
}

const harnessesCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("harnesses", args, { json: { type: "boolean" } });
  if (positionals.length > 0) throw new UsageError(`harnesses takes no arguments (got "${positionals[0]}")`, "see: vouch harnesses --help");
  const reports = await harnessReports(io.env);
  io.out(values.json ? `${JSON.stringify(reports)}\n` : sanitize(`${table(reports)}\n`));
  return 0;
};
export default harnessesCommand;
