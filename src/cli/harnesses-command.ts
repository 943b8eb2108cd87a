// `vouch harnesses [--json]`: the harness adapters, how each keeps every cap,
// whether it honours model/tools/permission mode, and whether its program is
// on PATH (looked up in the file system: no process is started).
import { CAP_NAMES } from "../engine/events.ts";
import { UsageError } from "../engine/errors.ts";
import { commandArgvFromEnv } from "../spawn/harness/command.ts";
import { findOnPath } from "../spawn/harness/find-binary.ts";
import { HARNESSES } from "../spawn/harness/registry.ts";
import type { HarnessDescriptor } from "../spawn/harness/types.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIO, Command } from "./io.ts";

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
}

export function harnessReports(env: CliIO["env"]): HarnessReport[] {
  return HARNESSES.map((h) => {
    let program = h.binary;
    let note: string | null = null;
    if (h.name === "command") {
      program = commandArgvFromEnv(env)?.[0] ?? null;
      if (!program) note = "no program: set VOUCH_COMMAND";
    }
    if (h.name === "replay") note = "built in: plays recorded fixtures (--replay-dir)";
    const found = program ? findOnPath(program, env.PATH) : null;
    if (program && !found) note = `not found on PATH`;
    const g = h.guarantees;
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
    };
  });
}

function table(reports: HarnessReport[]): string {
  const honoured = (r: HarnessReport, b: boolean) => (r.recorded ? "recorded" : b ? "yes" : "no");
  const header = ["harness", "program", "installed", ...CAP_NAMES, "model", "tools", "permission_mode"];
  const rows = reports.map((r) => [
    r.name,
    r.program ?? "-",
    r.found ?? r.note ?? "-",
    ...CAP_NAMES.map((c) => r.caps[c]),
    honoured(r, r.model),
    honoured(r, r.tools),
    honoured(r, r.permission_mode),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  const legend = [
    "",
    "native: the harness's own flag keeps the cap; supervised: vouch kills the process group;",
    "observed: only noticed afterwards from the harness's report; none: refused before anything starts.",
    "recorded: accepted, but replay only plays what was recorded.",
  ];
  return [line(header), ...rows.map(line), ...legend].join("\n");
}

const harnessesCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("harnesses", args, { json: { type: "boolean" } });
  if (positionals.length > 0) throw new UsageError(`harnesses takes no arguments (got "${positionals[0]}")`, "see: vouch harnesses --help");
  const reports = harnessReports(io.env);
  io.out(values.json ? `${JSON.stringify(reports)}\n` : `${table(reports)}\n`);
  return 0;
};
export default harnessesCommand;
