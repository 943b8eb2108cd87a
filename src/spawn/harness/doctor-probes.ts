// `vouch doctor`'s probes (ADR 0018): the command lines vouch would send each
// agent CLI — one with every flag it may pass, one more per permission mode —
// run where no model call can happen (empty prompt channel, a throwaway HOME
// with no credentials, base URLs on a closed local port), and a pure reading
// of how each CLI's own parser answered: its parse-error wording and exit
// status against the error it gives only after parsing succeeded.
import type { AgentAssignment } from "../../engine/ports.ts";
import { PROCESS_ADAPTERS } from "./registry.ts";
import type { AgentCli } from "./tested-versions.ts";
import type { HarnessAdapter } from "./types.ts";

/** The agent CLIs' adapters, from the one registry. */
export const DOCTOR_ADAPTERS: Readonly<Record<AgentCli, HarnessAdapter>> = {
  claude: PROCESS_ADAPTERS.claude,
  codex: PROCESS_ADAPTERS.codex,
  gemini: PROCESS_ADAPTERS.gemini,
};

/** A closed port on this machine: a CLI that got past its checks fails to connect, nothing leaves it. */
export const NOWHERE = "http://127.0.0.1:9";

/** Variables set for every probe (with PATH and a throwaway HOME). */
export const PROBE_ENV: Readonly<Record<string, string>> = {
  ANTHROPIC_BASE_URL: NOWHERE,
  OPENAI_BASE_URL: NOWHERE,
  GOOGLE_GEMINI_BASE_URL: NOWHERE,
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  GEMINI_CLI_NO_RELAUNCH: "true",
};

export type ProbeVerdict = "accepted" | "rejected" | "unknown";

export interface ProbeAnswer {
  exit: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** The assignments whose command lines are probed for `cli`. */
export function probeAssignments(cli: AgentCli, cwd: string): AgentAssignment[] {
  const adapter = DOCTOR_ADAPTERS[cli];
  const g = adapter.guarantees;
  const modes = adapter.permissionModes ?? [];
  const base: AgentAssignment = {
    runId: "doctor",
    node: "doctor",
    attempt: 1,
    harness: cli,
    prompt: "", // the prompt channel stays empty: no CLI may start a model call
    cwd,
    passEnv: [],
    caps: {
      ...(g.caps.turns === "native" ? { turns: 3 } : {}),
      ...(g.caps.budget_usd === "native" ? { budgetUsd: 0.5 } : {}),
      wallMs: 60_000,
      idleMs: 30_000,
    },
    output: { format: "text" },
    ...(g.model ? { model: "vouch-doctor-model" } : {}),
    ...(g.tools ? { tools: ["Read", "Bash(git diff:*)"] } : {}),
  };
  const full = modes[0] !== undefined && g.permissionMode ? { ...base, permissionMode: modes[0] } : base;
  return [full, ...modes.slice(1).map((m) => ({ ...base, permissionMode: m }))];
}

const firstMatch = (text: string, re: RegExp) => re.exec(text)?.[0]?.trim() ?? null;

/** How `cli`'s parser answered one probe, and the line that says so. */
export function classifyProbe(cli: AgentCli, a: ProbeAnswer): { verdict: ProbeVerdict; detail: string } {
  const err = a.stderr;
  const last = err.trim().split("\n").filter(Boolean).pop() ?? `exit ${a.exit ?? a.signal}`;
  switch (cli) {
    case "codex": {
      // clap: "error: unexpected argument '--x' found" / "error: invalid value 'x' for '--sandbox'", exit 2.
      const bad = firstMatch(err, /^error: .*$/m);
      if (a.exit === 2 || bad) return { verdict: "rejected", detail: bad ?? last };
      if (a.exit === 1 && /No prompt provided/.test(err)) return { verdict: "accepted", detail: "parsed; stopped at the empty prompt" };
      return { verdict: "unknown", detail: `exit ${a.exit ?? a.signal}: ${last}` };
    }
    case "claude": {
      // commander: "error: unknown option '--x'", "error: option '--permission-mode <mode>' argument 'x' is invalid ...".
      // A mode it refuses to run with here (bypassPermissions as root) fails a run just the same.
      const bad = firstMatch(
        err,
        /^error: (unknown option|option |missing required|too many arguments).*$|^.*cannot be used with root.*$/m,
      );
      if (bad) return { verdict: "rejected", detail: bad };
      if (/Input must be provided/.test(err)) return { verdict: "accepted", detail: "parsed; stopped at the empty prompt" };
      return { verdict: "unknown", detail: `exit ${a.exit ?? a.signal}: ${last}` };
    }
    case "gemini": {
      // yargs prints its usage, then "Unknown argument: x" / "Invalid values: ...", exit 1.
      const bad = firstMatch(err, /^(Unknown arguments?|Invalid values|Missing required argument|Not enough arguments).*$/m);
      if (bad) {
        const more = firstMatch(err.slice(err.indexOf(bad) + bad.length), /^\s*Argument: .*$/m);
        return { verdict: "rejected", detail: more ? `${bad} ${more}` : bad };
      }
      // 41 (no auth), 52 (config) and 55 (trust) come only after the arguments were accepted.
      if (a.exit === 41 || a.exit === 52 || a.exit === 55 || /"type":"init"/.test(a.stdout))
        return { verdict: "accepted", detail: `parsed; stopped before any model call (exit ${a.exit})` };
      return { verdict: "unknown", detail: `exit ${a.exit ?? a.signal}: ${last}` };
    }
  }
}
